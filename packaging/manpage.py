#!/usr/bin/env python3
"""Writes the runlens(1) manual page from the built program's own --help texts.

The page is generated at build time, so it cannot drift from the command line: the main help lists the
subcommands, and each subcommand's --help gives its options and arguments. A subcommand the main help names
but the program does not answer with its own help is an error, not a silently missing section.
"""

import argparse
import os
import re
import subprocess
import sys

OPTION_LINE = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")
CONTINUATION = re.compile(r"^\s{3,}(\S.*)$")
SUBCOMMAND_LINE = re.compile(r"^  ([a-z][a-z0-9-]*)\s+(.*)$")
OPTION_WORD = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")


def run_help(binary, args):
    env = dict(os.environ)
    # English help, whatever the locale of the machine that builds the package, and no display needed.
    env.update({"QT_QPA_PLATFORM": "offscreen", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"})
    env.pop("LANGUAGE", None)
    # A sanitizer build reports leaks of libraries at exit; the help text is all that matters here.
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "detect_leaks=0"]))
    result = subprocess.run([binary, *args, "--help"], env=env, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        sys.exit(f"manpage: '{binary} {' '.join(args)} --help' failed ({result.returncode}): {result.stderr}")
    return result.stdout


def parse_help(text):
    """Splits QCommandLineParser output into usage, description paragraphs and named sections."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("Usage: "):
        sys.exit("manpage: the help text does not start with 'Usage:'")
    usage = lines[0][len("Usage: "):].split(" ", 1)
    usage = usage[1] if len(usage) > 1 else ""
    description, sections, current = [], {}, None
    for line in lines[1:]:
        if line in ("Options:", "Arguments:"):
            current = sections.setdefault(line[:-1], [])
        elif current is not None:
            current.append(line)
        else:
            description.append(line)
    return usage, description, {name: entries(body) for name, body in sections.items()}


def entries(body):
    """(term, text) pairs of an Options or Arguments section, with wrapped lines joined."""
    result = []
    for line in body:
        if not line.strip():
            continue
        continuation = CONTINUATION.match(line)
        if continuation and result:
            term, text = result[-1]
            result[-1] = (term, f"{text} {continuation.group(1)}".strip())
            continue
        match = OPTION_LINE.match(line)
        if not match:
            sys.exit(f"manpage: cannot read the help line {line!r}")
        result.append((match.group(1), match.group(2) or ""))
    return result


def subcommands(description):
    """Subcommand names in the order the main help lists them (one may have several usage lines)."""
    names, synopses, inside = [], [], False
    for line in description:
        if line.startswith("Subcommands"):
            inside = True
            continue
        if inside:
            match = SUBCOMMAND_LINE.match(line)
            if not match:
                inside = bool(line.strip())
                continue
            usage = re.split(r"\s{2,}", match.group(2))[0]
            synopses.append((match.group(1), usage))
            if match.group(1) not in names:
                names.append(match.group(1))
    return names, synopses


def roff(text):
    """Escapes plain text for roff: backslashes, option names (a real minus sign, so that they can be
    copied from the rendered page), leading control characters and non-ASCII characters."""
    text = text.replace("\\", "\\e")
    text = OPTION_WORD.sub(lambda match: match.group(0).replace("-", "\\-"), text)
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def option_term(term):
    """Bold option names, italic value placeholders: '-o, --out <FILE>' -> \\fB\\-o\\fR, ..."""
    parts = []
    for piece in re.split(r"(, | )", term):
        if piece in (", ", " "):
            parts.append(piece)
        elif piece.startswith("<") and piece.endswith(">"):
            parts.append(f"\\fI{roff(piece[1:-1])}\\fR")
        elif piece.startswith("-"):
            parts.append(f"\\fB{roff(piece)}\\fR")
        else:
            parts.append(f"\\fI{roff(piece)}\\fR")
    return "".join(parts)


def synopsis_words(usage):
    """'PATH --chart KIND:NAME [--json]' with options bold and placeholders italic."""
    words = []
    for word in usage.split():
        core = word.strip("[]")
        if core.startswith("-"):
            words.append(word.replace(core, f"\\fB{roff(core)}\\fR"))
        else:
            words.append(word.replace(core, f"\\fI{roff(core)}\\fR") if core else word)
    return " ".join(words)


def paragraphs(lines):
    """Blank-line separated paragraphs, each joined into one line."""
    result, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            result.append(" ".join(current))
            current = []
    if current:
        result.append(" ".join(current))
    return result


def emit_entries(out, items):
    for term, text in items:
        out.append(".TP")
        out.append(option_term(term))
        out.append(roff(text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the built runlens executable")
    parser.add_argument("--version", required=True)
    parser.add_argument("--date", required=True, help="release date shown in the page footer")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    main_text = run_help(args.binary, [])
    usage, description, sections = parse_help(main_text)
    names, synopses = subcommands(description)
    if not names:
        sys.exit("manpage: the main help lists no subcommands")
    intro = [p for p in paragraphs(description) if not p.startswith("Subcommands")]
    summary = intro[0] if intro else "RunLens"
    summary = re.sub(r"^RunLens:\s*", "", summary).rstrip(".")

    out = [
        f'.TH RUNLENS 1 "{args.date}" "RunLens {args.version}" "User Commands"',
        ".nh",
        ".ad l",
        ".SH NAME",
        f"runlens \\- {roff(summary)}",
        ".SH SYNOPSIS",
        f".B runlens\n{synopsis_words(usage)}",
    ]
    for name, sub_usage in synopses:
        out.append(".br")
        out.append(f".B runlens {name}\n{synopsis_words(sub_usage)}")
    out.append(".SH DESCRIPTION")
    for index, paragraph in enumerate(intro):
        if index:
            out.append(".PP")
        out.append(roff(re.sub(r"^RunLens:\s*", "RunLens is ", paragraph)))
    out.append(".PP")
    out.append("Without a subcommand, \\fBrunlens\\fR opens its main window, on \\fIPATH\\fR when one is given: "
               "a run folder or a single file in it. The subcommands work without a display and write to the "
               "standard output.")
    out.append(".PP")
    out.append("Each subcommand is described under \\fBCOMMANDS\\fR; "
               "\\fBrunlens\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints the same text.")
    out.append(".SH OPTIONS")
    emit_entries(out, sections.get("Options", []))
    if sections.get("Arguments"):
        out.append(".SH ARGUMENTS")
        emit_entries(out, sections["Arguments"])

    out.append(".SH COMMANDS")
    for name in names:
        text = run_help(args.binary, [name])
        if text == main_text:
            sys.exit(f"manpage: 'runlens {name} --help' prints the main help: is '{name}' a subcommand?")
        sub_usage, sub_description, sub_sections = parse_help(text)
        out.append(f'.SS "runlens {name}"')
        out.append(f".B runlens {name}\n{synopsis_words(sub_usage)}")
        for paragraph in paragraphs(sub_description):
            out.append(".PP")
            out.append(roff(paragraph))
        options = [item for item in sub_sections.get("Options", []) if not item[0].startswith(("-h,", "--help"))]
        emit_entries(out, options + sub_sections.get("Arguments", []))

    out.append(".SH SEE ALSO")
    out.append("\\fBrunlens \\-\\-help\\-all\\fR for the options Qt adds to every program.")

    with open(args.output, "w", encoding="ascii") as stream:
        stream.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
