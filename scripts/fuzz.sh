#!/usr/bin/env bash
# Builds the libFuzzer target Fuzz/ShelfImageFuzz.swift (every decoder, EXIF orientation, the reduced decode, the
# area and bilinear resizes in C, the spine warp) with AddressSanitizer and runs it for SECONDS (default 60) on the
# committed seeds in Fuzz/seeds. What it learns stays in .build/fuzz/corpus; a crash, sanitizer report or failed
# check ends the run non-zero, prints the input (base64) into the log and leaves it in .build/fuzz/artifacts.
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#        scripts/fuzz.sh --remake-seeds   (writes Fuzz/seeds again from the ShelfImage test fixtures)
# Reproduce a finding: SWIFT_BACKTRACE=enable=no .build/fuzz/fuzz-image FILE (after a run, which builds it).
#
# What gets compiled comes from Package.swift itself (`swift package dump-package`): ShelfImage's sources and every
# target it depends on, C targets with their headers and defines, Swift targets as modules, system libraries through
# their module maps and pkg-config, and each target's linked libraries. A dependency or setting the script cannot
# map (a package product, resources, unsafe flags) stops the build with a line naming it, instead of a build that
# quietly leaves a piece out.
# libjpeg-turbo, libpng, libheif and libwebp are the system builds, so coverage feedback comes from our shims, C
# loops and Swift code; the libraries themselves are fuzzed upstream (OSS-Fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/fuzz
seeds=Fuzz/seeds
if [ "${1:-}" = "--remake-seeds" ]; then
  rm -rf "$seeds" && mkdir -p "$seeds"
  python3 - "$seeds" Tests/ShelfImageTests/Fixtures/*.{jpg,png,heic,webp} <<'PY'
# Each fixture gets a 48-byte trailer (layout in Fuzz/ShelfImageFuzz.swift, FuzzInput): the flags walk through
# every scale and mode, and the quad is a spine leaning a little, as the detector finds them.
import hashlib, os, struct, sys
out, fixtures = sys.argv[1], sys.argv[2:]
spine = [(0.30, 0.08), (0.41, 0.10), (0.38, 0.93), (0.27, 0.91)]
for i, path in enumerate(sorted(p for p in fixtures if ".ref." not in p)):
    h = hashlib.sha256(os.path.basename(path).encode()).digest()
    sizes = [int.from_bytes(h[k:k + 2], "big") % 513 for k in range(0, 14, 2)]
    quad = b"".join(struct.pack(">i", int(v * (1 << 24))) for p in spine for v in p)
    trailer = bytes([i % 32, i % 8]) + b"".join(struct.pack(">H", s) for s in sizes) + quad
    assert len(trailer) == 48
    with open(path, "rb") as f, open(os.path.join(out, os.path.basename(path)), "wb") as g:
        g.write(f.read() + trailer)
PY
  echo "fuzz: wrote $(ls "$seeds" | wc -l) seeds to $seeds" >&2
  exit 0
fi
seconds="${1:-60}"
shift || true

swift_bin="$(dirname "$(readlink -f "$(command -v swiftc)")")"
export FUZZ_CLANG="${CLANG:-$swift_bin/clang}"
# Objects and modules from an earlier build go: a target since removed from the package must not be linked.
rm -rf "$out/obj" "$out/modules" "$out/modulemaps"
mkdir -p "$out" "$out/corpus" "$out/artifacts"

echo "fuzz: building $out/fuzz-image" >&2
# Its own scratch path, so a `swift build` running at the same time does not hold the manifest up.
swift package --scratch-path "$out/package" dump-package > "$out/package.json"
python3 - "$out" ShelfImage Fuzz/ShelfImageFuzz.swift <<'PY'
import json, os, shlex, subprocess, sys

out, fuzzed, harness = sys.argv[1], sys.argv[2], sys.argv[3]
manifest = json.load(open(os.path.join(out, "package.json")))
targets = {t["name"]: t for t in manifest["targets"]}
clang = os.environ["FUZZ_CLANG"]

def fail(message):
    sys.exit(f"fuzz: {message}; teach scripts/fuzz.sh to build it.")

def applies(setting):
    names = ((setting.get("condition") or {}).get("platformNames")) or ["linux"]
    return "linux" in names

def ordered(name, seen, order):
    """The target and everything it depends on, dependencies first."""
    if name in seen:
        return
    seen.add(name)
    for dependency in targets[name].get("dependencies", []):
        kind, value = next(iter(dependency.items()))
        if kind in ("byName", "target"):
            if value[0] not in targets:
                fail(f"{name} depends on {value[0]}, which is not a target of this package")
            ordered(value[0], seen, order)
        else:
            fail(f"{name} depends on the package product {value[0]}")
    order.append(name)

def files(target, suffixes):
    root = target.get("path") or f"Sources/{target['name']}"
    excluded = [os.path.normpath(os.path.join(root, e)) for e in target.get("exclude", [])]
    listed = [os.path.join(root, s) for s in target["sources"]] if target.get("sources") else [root]
    found = []
    for entry in listed:
        walk = [(entry, [], [""])] if os.path.isfile(entry) else os.walk(entry)
        for directory, _, names in walk:
            for n in names:
                p = os.path.normpath(os.path.join(directory, n))
                if p.endswith(suffixes) and not any(p == e or p.startswith(e + os.sep) for e in excluded):
                    found.append(p)
    return root, sorted(found)

def run(command):
    print("+ " + " ".join(shlex.quote(c) for c in command), file=sys.stderr)
    if subprocess.run(command).returncode != 0:
        sys.exit(f"fuzz: {os.path.basename(command[0])} failed (above)")

order = []
ordered(fuzzed, set(), order)
module_dirs, c_flags, objects, link_flags, swift_sources, fuzzed_defines = [], [], [], [], [], []
for name in order:
    t = targets[name]
    if t.get("resources"):
        fail(f"{name} has resources (Bundle.module)")
    defines, header_paths, swift_defines = [], [], []
    for s in filter(applies, t.get("settings", [])):
        kind, value = next(iter(s["kind"].items()))
        if s["tool"] == "linker" and kind == "linkedLibrary":
            link_flags.append("-l" + value["_0"])
        elif s["tool"] in ("c", "cxx") and kind == "define":
            defines.append("-D" + value["_0"])
        elif s["tool"] in ("c", "cxx") and kind == "headerSearchPath":
            header_paths.append(value["_0"])
        elif s["tool"] == "swift" and kind == "define":
            swift_defines.append("-D" + value["_0"])
        elif s["tool"] == "swift" and kind == "treatAllWarnings":
            pass  # the package build enforces it; here the harness compiles in the same module, under other flags
        else:
            fail(f"{name} has the {s['tool']} setting {kind}")
    if t["type"] == "system":
        root = t.get("path") or f"Sources/{name}"
        module_dirs.append(root)
        if t.get("pkgConfig"):
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", t["pkgConfig"]],
                                   check=True, capture_output=True, text=True).stdout.split()
            c_flags += [f for f in flags if f.startswith("-I")]
            link_flags += [f for f in flags if not f.startswith("-I")]
        continue
    if t["type"] != "regular":
        fail(f"{name} is a {t['type']} target")
    root, c_sources = files(t, (".c",))
    _, swift_files = files(t, (".swift",))
    if c_sources and swift_files:
        fail(f"{name} mixes C and Swift")
    if c_sources:
        include = os.path.join(root, t.get("publicHeadersPath") or "include")
        # SwiftPM's rule for a module map it writes itself: an umbrella header named after the module, else the
        # whole include directory.
        maps = os.path.join(out, "modulemaps", name)
        os.makedirs(maps, exist_ok=True)
        header = os.path.join(include, name + ".h")
        umbrella = f'umbrella header "{os.path.abspath(header)}"' if os.path.isfile(header) \
            else f'umbrella "{os.path.abspath(include)}"'
        given = os.path.join(include, "module.modulemap")
        with open(os.path.join(maps, "module.modulemap"), "w") as m:
            m.write(open(given).read() if os.path.isfile(given) else f"module {name} {{\n    {umbrella}\n    export *\n}}\n")
        module_dirs.append(maps)
        c_flags.append("-I" + include)
        for source in c_sources:
            obj = os.path.join(out, "obj", name, os.path.splitext(os.path.relpath(source, root))[0] + ".o")
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            run([clang, "-fsanitize=fuzzer-no-link,address", "-g", "-O1", "-DSWIFT_PACKAGE=1", *c_flags, *defines,
                 *("-I" + os.path.join(root, p) for p in header_paths), "-c", source, "-o", obj])
            objects.append(obj)
    elif name == fuzzed:
        # Compiled into the fuzzer's own module, so the harness can reach internal API (orientation, sizes).
        swift_sources, fuzzed_defines = swift_files, swift_defines
    else:
        modules = os.path.join(out, "modules")
        os.makedirs(modules, exist_ok=True)
        obj = os.path.join(out, "obj", name + ".o")
        run(["swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", name, "-O", "-g", "-wmo",
             "-sanitize=fuzzer,address", "-DSWIFT_PACKAGE", *swift_defines,
             *("-I" + d for d in module_dirs + [modules]), "-emit-module", "-emit-module-path",
             os.path.join(modules, name + ".swiftmodule"), "-c", *swift_files, "-o", obj])
        objects.append(obj)
if not swift_sources:
    fail(f"{fuzzed} has no Swift sources")
run(["swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", fuzzed + "Fuzz", "-O", "-g",
     "-sanitize=fuzzer,address", "-DSWIFT_PACKAGE", *fuzzed_defines,
     *("-I" + d for d in module_dirs + [os.path.join(out, "modules")]),
     *swift_sources, harness, *objects, *dict.fromkeys(link_flags), "-use-ld=lld", "-o", os.path.join(out, "fuzz-image")])
PY

echo "fuzz: running for ${seconds}s on $seeds (new inputs go to $out/corpus)" >&2
before=$(ls "$out/artifacts" | sort)
set +e
# Swift's own crash backtracer fights AddressSanitizer over the dying process (and can hang it); ASan reports.
SWIFT_BACKTRACE=enable=no "$out/fuzz-image" "$out/corpus" "$seeds" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  # The input goes into the log too, so a CI run that found something can be replayed from the log alone.
  for f in $(comm -13 <(echo "$before") <(ls "$out/artifacts" | sort)); do
    echo "fuzz: finding $out/artifacts/$f ($(wc -c < "$out/artifacts/$f") bytes), base64 (decode with base64 -d):" >&2
    base64 -w 0 "$out/artifacts/$f" >&2
    echo >&2
  done
  echo "fuzz: the run failed (exit $rc); replay with SWIFT_BACKTRACE=enable=no $out/fuzz-image FILE" >&2
fi
exit "$rc"
