#!/bin/sh
# Rebuilds src/web/assets/vendor/codemirror.js and its licence file
# (codemirror.LICENSE.txt: the packages bundled, their versions and
# licences) from the packages of package-lock.json. From this folder:
#   npm ci && sh build.sh
# The bundle is committed: building or testing rulebook needs no npm.
set -eu
cd "$(dirname "$0")"
out=../../src/web/assets/vendor
mkdir -p "$out"
npx esbuild src/index.js --bundle --minify --format=iife --global-name=CM \
  --legal-comments=none --target=es2020 --metafile=meta.json \
  --outfile="$out/codemirror.js"
node licences.js meta.json > "$out/codemirror.LICENSE.txt"
rm -f meta.json
