#!/usr/bin/env bash
# Builds the .deb with CPack and checks what a fresh Debian 12 needs from it: the binary, the
# desktop entry, AppStream metadata, icon and MIME type, and a Depends line on the Qt runtime.
set -euo pipefail
build=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
deb=$(ls "$out"/*.deb)
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/trainscope ./usr/share/applications/org.trainscope.Trainscope.desktop \
         ./usr/share/metainfo/org.trainscope.Trainscope.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/org.trainscope.Trainscope.svg ./usr/share/mime/packages/trainscope-mime.xml; do
  grep -q " $f\$" <<<"$contents" || { echo "missing in package: $f"; exit 1; }
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6charts6 libqt6svg6 libqt6core6; do
  grep -q "$lib" <<<"$depends" || { echo "Depends lacks $lib"; exit 1; }
done
echo "1 passed, 0 failed"
