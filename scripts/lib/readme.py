#!/usr/bin/env python3
"""What scripts/check-readme needs from README.md and docs/guide.md, read the same way every time.

  readme.py commands README.md       the shell script of the README's runnable blocks, but
                                     those another script runs (below)
  readme.py commands README.md SCRIPT  the shell script of the blocks marked as run by SCRIPT
  readme.py cpp README.md            the C++ block of the "Usage" section
  readme.py copies README.md ROOT    checks every table marked as a copy of a file under ROOT
  readme.py programs GUIDE.md        every ```cpp block of the guide, each a complete program,
                                     as one translation unit that runs them all in order
  readme.py headers GUIDE.md INCLUDE lists every public header under INCLUDE (outside detail/
                                     folders) that GUIDE.md never names; fails if there is one

Markers are HTML comments on the line(s) just above a fenced block or table, invisible on
GitHub:
  <!-- not run -->                  the next fenced block is shown, never run
  <!-- run by scripts/x -->         the next fenced block is run by scripts/x, not by
                                     check-readme (scripts/test-python runs the Python block
                                     where it builds the module anyway: one build, not two)
  <!-- copy of docs/x/y.md -->      the next table must appear, byte for byte, in that file
"""
import os
import re
import sys

RUNNABLE = {"sh", "bash", "console", "shell"}
NOT_RUN = "<!-- not run -->"
RUN_BY = re.compile(r"<!-- run by (\S+) -->")
COPY_OF = re.compile(r"<!-- copy of (\S+) -->")

# check-readme runs the benchmark commands with these, to prove they work, not to time them;
# the README says so beside the commands.
SHORT_BENCHMARK_TIME = "--benchmark_min_time=0.01"
SHORT_REPETITIONS = "--benchmark_repetitions=2"


def fenced_blocks(lines):
    """Yields (language, first line number, body lines, marker lines above)."""
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if not opening:
            i += 1
            continue
        indent, language = opening.group(1), opening.group(2)
        start = i
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        yield language, start + 1, body, markers_above(lines, start)


def markers_above(lines, index):
    """The HTML comments on the non-blank lines right above line `index`."""
    markers = []
    j = index - 1
    while j >= 0 and lines[j].strip().startswith("<!--"):
        markers.append(lines[j].strip())
        j -= 1
    return markers


def shorten_benchmark_times(command):
    # Only a benchmark program's own command line: not, say, the cmake line that builds it.
    words = command.split()
    if not words or not words[0].endswith("_bench"):
        return command
    command = re.sub(r"--benchmark_min_time=\S+", SHORT_BENCHMARK_TIME, command)
    command = re.sub(r"--benchmark_repetitions=\S+", SHORT_REPETITIONS, command)
    if SHORT_BENCHMARK_TIME not in command:
        command += " " + SHORT_BENCHMARK_TIME
    return command


def runner_of(markers):
    """The script a block is marked as run by (<!-- run by scripts/x -->), else None."""
    for marker in markers:
        if match := RUN_BY.fullmatch(marker):
            return match.group(1)
    return None


def commands(lines, runner=None):
    """The runnable blocks' commands: those of no other script's (runner None), or SCRIPT's."""
    script = []
    for language, line_number, body, markers in fenced_blocks(lines):
        if language not in RUNNABLE:
            continue
        if NOT_RUN in markers:
            if runner is None:
                script.append(f"echo '--- README.md:{line_number}: block marked not run, skipped'")
            continue
        if runner_of(markers) != runner:
            if runner is None:
                # A misspelt runner would drop the block from CI without a word.
                if not os.access(runner_of(markers), os.X_OK):
                    sys.exit(f"readme.py: README.md:{line_number}: <!-- run by {runner_of(markers)} --> "
                             "names no executable script of this repository")
                script.append(f"echo '--- README.md:{line_number}: run by {runner_of(markers)}, skipped'")
            continue
        script.append(f"echo '--- README.md:{line_number}'")
        for line in body:
            if line.split("#")[0].strip() == "scripts/test":
                # The README's own test command is what runs this check: not again, inside it.
                script.append("echo '(scripts/test: already running, the caller of this check)'")
                continue
            script.append(shorten_benchmark_times(line))
    return "\n".join(script) + "\n" if script else ""


def usage_cpp(lines):
    in_usage = False
    for index, line in enumerate(lines):
        if line.startswith("## "):
            in_usage = line.strip() == "## Usage"
        if in_usage and line.strip() == "```cpp":
            for language, _, body, _ in fenced_blocks(lines[index:]):
                return "\n".join(body) + "\n"
    sys.exit("readme.py: no ```cpp block in the README's '## Usage' section")


def guide_programs(lines, name):
    """One translation unit from every ```cpp block: each block is a complete program (its
    includes, its code, an `int main()`). Its #include lines go to the top; the rest goes into
    a namespace of its own, where `main` becomes `run`; a main() runs them in order and fails
    on the first that returns non-zero or throws. One file, because parsing the library's
    headers is most of a block's compile time (about 8 s each on this project's CI machine)."""
    head, bodies = [], []
    for language, line_number, body, markers in fenced_blocks(lines):
        if language != "cpp":
            continue
        if NOT_RUN in markers:
            continue
        code = []
        for line in body:
            (head if line.startswith("#include") else code).append(line)
        if not any(re.match(r"^int main\(\)", line) for line in code):
            sys.exit(f"{name}:{line_number}: a ```cpp block must be a complete program with "
                     "`int main()` (or be marked <!-- not run -->)")
        code = [re.sub(r"^int main\(\)", "int run()", line) for line in code]
        bodies.append((line_number, code))
    out = sorted(set(head), key=head.index)
    out += ["#include <cstdio>", "#include <exception>", ""]
    for index, (line_number, code) in enumerate(bodies):
        out.append(f"namespace block_{index} {{  // {name}:{line_number}")
        out += code
        out.append(f"}}  // namespace block_{index}")
    out.append("int main() {")
    for index, (line_number, _) in enumerate(bodies):
        out.append(f'  std::printf("--- {name}:{line_number}\\n");')
        out.append("  try {")
        out.append(f"    if (const int status = block_{index}::run(); status != 0) {{")
        out.append(f'      std::printf("{name}:{line_number}: the block returned %d\\n", status);')
        out.append("      return 1;")
        out.append("    }")
        out.append("  } catch (const std::exception& error) {")
        out.append(f'    std::printf("{name}:{line_number}: the block threw: %s\\n", error.what());')
        out.append("    return 1;")
        out.append("  }")
    out.append(f'  std::printf("{name}: {len(bodies)} program(s) ran\\n");')
    out.append("}")
    return "\n".join(out) + "\n"


def unmentioned_headers(text, include_root):
    """The public headers under include_root that `text` never names. A header is named by its
    path below include/sabandit/ (`policies/ts_sa.hpp`), with or without `sabandit/` or
    `include/sabandit/` in front: `concepts.hpp` is not named by `contextual/concepts.hpp`."""
    import os
    named = set()
    for token in re.findall(r"[\w./-]+\.hpp", text):
        for prefix in ("include/sabandit/", "sabandit/"):
            if token.startswith(prefix):
                token = token[len(prefix):]
                break
        named.add(token)
    missing = []
    for folder, subfolders, files in os.walk(include_root):
        subfolders[:] = sorted(d for d in subfolders if d != "detail")
        for file in sorted(files):
            if file.endswith(".hpp"):
                relative = os.path.relpath(os.path.join(folder, file), include_root)
                if relative not in named:
                    missing.append(relative)
    return missing


def check_copies(lines, root, name="README.md"):
    failures = 0
    checked = 0
    for index, line in enumerate(lines):
        marker = COPY_OF.fullmatch(line.strip())
        if not marker:
            continue
        table_start = index + 1
        while table_start < len(lines) and not lines[table_start].startswith("|"):
            if lines[table_start].strip() and not lines[table_start].strip().startswith("<!--"):
                break
            table_start += 1
        table = []
        j = table_start
        while j < len(lines) and lines[j].startswith("|"):
            table.append(lines[j])
            j += 1
        source = f"{root}/{marker.group(1)}"
        if not table:
            print(f"{name}:{index + 1}: no table follows the copy marker", file=sys.stderr)
            failures += 1
            continue
        try:
            with open(source, encoding="utf-8") as f:
                original = f.read()
        except OSError as error:
            print(f"{name}:{index + 1}: {error}", file=sys.stderr)
            failures += 1
            continue
        if "\n".join(table) + "\n" not in original:
            print(f"{name}:{table_start + 1}: the table differs from {marker.group(1)}",
                  file=sys.stderr)
            failures += 1
        checked += 1
    if checked or failures:  # a page without copies says nothing
        print(f"readme.py: {name}: {checked} table(s) checked against their files, {failures} problem(s)")
    return failures


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    what, readme = sys.argv[1], sys.argv[2]
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if what == "commands" and len(sys.argv) in (3, 4):
        runner = sys.argv[3] if len(sys.argv) == 4 else None
        script = commands(lines, runner)
        if runner is not None and not script.strip():
            sys.exit(f"readme.py: {readme} has no block marked <!-- run by {runner} -->")
        sys.stdout.write(script)
    elif what == "cpp":
        sys.stdout.write(usage_cpp(lines))
    elif what == "copies" and len(sys.argv) == 4:
        sys.exit(1 if check_copies(lines, sys.argv[3], readme) else 0)
    elif what == "programs":
        sys.stdout.write(guide_programs(lines, readme))
    elif what == "headers" and len(sys.argv) == 4:
        missing = unmentioned_headers("\n".join(lines), sys.argv[3])
        for header in missing:
            print(f"{readme}: never mentions the public header {header}", file=sys.stderr)
        print(f"readme.py: {len(missing)} public header(s) not mentioned in {readme}")
        sys.exit(1 if missing else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
