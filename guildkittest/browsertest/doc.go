// Package browsertest tests the emulator's inspector page in a real
// browser: headless Chromium driven through the DevTools protocol.
//
// It is a module of its own so that the browser driver is not a dependency
// of guildkit. Run it with
//
//	cd guildkittest/browsertest && go test ./...
//
// It needs Chromium (Debian: apt-get install chromium); outside CI the test
// skips when no browser is found, in CI (CI=true) it fails. Screenshots go
// to $GUILDKIT_ARTIFACTS, or a guildkit-artifacts folder in the temporary
// directory.
package browsertest
