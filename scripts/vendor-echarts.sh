#!/usr/bin/env bash
# Vendors Apache ECharts' browser bundle into kernel/display/echarts, where
# go:embed picks it up: notebooks load it from their own outputs, never from
# a CDN. It fetches the pinned npm package with npm (no global install) and
# copies dist/echarts.min.js with the package's LICENSE and NOTICE.
# Usage: scripts/vendor-echarts.sh [version]   (default: the pinned one)
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${1:-5.6.0}" # keep in step with Version in kernel/display/echarts/echarts.go
DEST=kernel/display/echarts

command -v npm >/dev/null 2>&1 || { echo "vendor-echarts: npm is needed (apt-get install npm)" >&2; exit 1; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

(cd "$TMP" && npm pack --silent "echarts@$VERSION" >/dev/null)
tar -xzf "$TMP"/echarts-"$VERSION".tgz -C "$TMP"
PKG="$TMP/package"
got="$(node -p "require('$PKG/package.json').version" 2>/dev/null || sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$PKG/package.json" | head -1)"
[ "$got" = "$VERSION" ] || { echo "vendor-echarts: npm gave version $got, wanted $VERSION" >&2; exit 1; }

cp "$PKG/dist/echarts.min.js" "$DEST/echarts.min.js"
cp "$PKG/LICENSE" "$DEST/LICENSE"
[ -f "$PKG/NOTICE" ] && cp "$PKG/NOTICE" "$DEST/NOTICE"
sed -i "s/^const Version = \".*\"/const Version = \"$VERSION\"/" "$DEST/echarts.go" 2>/dev/null || true
echo "vendored echarts $VERSION: $(wc -c <"$DEST/echarts.min.js") bytes in $DEST/echarts.min.js"
