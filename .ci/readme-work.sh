# Sourced by the README checks (.ci/install-check, .ci/plugin-check): sets `repo` (this
# repository), `work` (a folder holding a clone named dbbbuilder-linux, beside which the check
# writes its package) and `scratch` (the build folder), and defines `readme_block MARKER`, which
# prints the code block after the README line <!-- ci: MARKER -->.
# DBB_CHECK_WORK: a folder the checks share (one clone, one build folder, so the second check does
# not compile the library again); by default a folder of this check's own, removed at its exit.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${DBB_CHECK_WORK:-}" ]; then
    work=$DBB_CHECK_WORK
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
[ -d "$work/dbbbuilder-linux" ] || git clone -q "$repo" "$work/dbbbuilder-linux"
scratch="$work/.build"
readme_block() {
    awk -v marker="<!-- ci: $1 -->" '
        $0 == marker { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$repo/README.md"
}
