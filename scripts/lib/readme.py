#!/usr/bin/env python3
"""What scripts/check-readme needs from README.md, read the same way every time.

  readme.py commands README.md       the shell script of the README's runnable blocks
  readme.py cpp README.md            the C++ block of the "Usage" section
  readme.py copies README.md ROOT    checks every table marked as a copy of a file under ROOT

Markers are HTML comments on the line(s) just above a fenced block or table, invisible on
GitHub:
  <!-- not run -->                  the next fenced block is shown, never run
  <!-- copy of docs/x/y.md -->      the next table must appear, byte for byte, in that file
"""
import re
import sys

RUNNABLE = {"sh", "bash", "console", "shell"}
NOT_RUN = "<!-- not run -->"
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


def commands(lines):
    script = []
    for language, line_number, body, markers in fenced_blocks(lines):
        if language not in RUNNABLE:
            continue
        if NOT_RUN in markers:
            script.append(f"echo '--- README.md:{line_number}: block marked not run, skipped'")
            continue
        script.append(f"echo '--- README.md:{line_number}'")
        for line in body:
            if line.split("#")[0].strip() == "scripts/test":
                # The README's own test command is what runs this check: not again, inside it.
                script.append("echo '(scripts/test: already running, the caller of this check)'")
                continue
            script.append(shorten_benchmark_times(line))
    return "\n".join(script) + "\n"


def usage_cpp(lines):
    in_usage = False
    for index, line in enumerate(lines):
        if line.startswith("## "):
            in_usage = line.strip() == "## Usage"
        if in_usage and line.strip() == "```cpp":
            for language, _, body, _ in fenced_blocks(lines[index:]):
                return "\n".join(body) + "\n"
    sys.exit("readme.py: no ```cpp block in the README's '## Usage' section")


def check_copies(lines, root):
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
            print(f"README.md:{index + 1}: no table follows the copy marker", file=sys.stderr)
            failures += 1
            continue
        try:
            with open(source, encoding="utf-8") as f:
                original = f.read()
        except OSError as error:
            print(f"README.md:{index + 1}: {error}", file=sys.stderr)
            failures += 1
            continue
        if "\n".join(table) + "\n" not in original:
            print(f"README.md:{table_start + 1}: the table differs from {marker.group(1)}",
                  file=sys.stderr)
            failures += 1
        checked += 1
    print(f"readme.py: {checked} table(s) checked against their files, {failures} problem(s)")
    return failures


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    what, readme = sys.argv[1], sys.argv[2]
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if what == "commands":
        sys.stdout.write(commands(lines))
    elif what == "cpp":
        sys.stdout.write(usage_cpp(lines))
    elif what == "copies" and len(sys.argv) == 4:
        sys.exit(1 if check_copies(lines, sys.argv[3]) else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
