#!/usr/bin/env bash
# Regenerates Models/*.swift from ModelSpecs/* with dbb-codegen; the first line of each spec
# holds the dbb-codegen options. A test checks the committed models are up to date.
set -euo pipefail
cd "$(dirname "$0")"
codegen=${DBB_CODEGEN:-$(cd ../.. && swift build --product dbb-codegen --show-bin-path)/dbb-codegen}
for spec in ModelSpecs/*; do
    read -r -a options <<< "$(head -n 1 "$spec" | sed -e 's|^// *dbb-codegen *||')"
    class=$(printf '%s\n' "${options[@]}" | awk 'prev == "--class" { print } { prev = $0 }')
    "$codegen" "$spec" "${options[@]}" --output "Models/$class.swift"
done
