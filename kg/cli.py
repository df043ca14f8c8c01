"""The ``kg`` command: argument wiring and error translation only.

Every command calls into the library; a :class:`kg.errors.KgError` becomes a
one-line message on stderr and a non-zero exit status, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from kg import __version__
from kg.errors import KgError, OutputFolderError
from kg.util import termination
from kg.util.argtypes import (
    cores,
    megabytes,
    positive_bytes,
    positive_count,
    positive_seconds,
    secrets_in,
)

if TYPE_CHECKING:
    from kg.models import Corpus
    from kg.util.parallel import Parallelism
    from kg.util.progress import Progress

DESCRIPTION = ("Build a knowledge graph from research-paper listings, query it in SPARQL,\n"
               "draw it, and study who writes with whom.")
EPILOG = """examples:
  kg build                         the bundled sample -> output/
  kg build listing.txt -o out      your own listings (several files merge; - reads stdin)
  kg queries                       the named SPARQL queries and their parameters
  kg query papers-of-author --param author="Shiwei Liu"
  kg viz ego "Shiwei Liu" -o output/ego.html
  kg COMMAND --help                a command's options"""

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line (``kg: error: ...``), secrets hidden."""

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: Any = None) -> tuple[Any, list[str]]:
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:  # pragma: no cover - exercised via CLI tests
        for secret in secrets_in(getattr(self, "_argv", [])):
            message = message.replace(secret, "***")
        self.exit(EXIT_USAGE, f"kg: error: {message}\n")


def _add_server_options(p: argparse.ArgumentParser, timeout_help: str) -> None:
    p.add_argument("--user", default=None, help="user name (default: KG_SPARQL_USER)")
    p.add_argument("--password", default=None,
                   help="password (default: KG_SPARQL_PASSWORD, which keeps it out of "
                        "your shell history)")
    p.add_argument("--timeout", type=positive_seconds, default=None, metavar="SECONDS",
                   help=timeout_help)
    p.add_argument("--max-response", type=megabytes, default=None, metavar="MB",
                   help="read at most this many MiB of one answer from the server "
                        "(default: 512)")


def _add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        dest="input_format",
        choices=["auto", "listing", "json", "jsonl", "csv", "tsv", "bibtex"],
        default="auto",
        help="input format (default: sniffed from content and extension)",
    )
    p.add_argument(
        "--max-bytes",
        type=positive_bytes,
        default=None,
        help="refuse an input file larger than this many bytes (default: 512 MiB)",
    )


def _add_progress_options(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    g.add_argument("-v", "--verbose", action="store_true", help="print every warning")


def _add_workers_option(p: argparse.ArgumentParser, text: str) -> None:
    """``--workers N``: the one default of ``kg extract`` and ``kg build`` (every usable
    core), made into a :class:`~kg.util.parallel.Parallelism` once (:func:`_parallelism`)."""
    p.add_argument("--workers", type=cores, default=None, metavar="N", help=text)


def _parallelism(args: argparse.Namespace) -> Parallelism:
    """The run's :class:`~kg.util.parallel.Parallelism`, made once from ``--workers`` and
    ``--overlap`` (kg build's; kg extract has none)."""
    from kg.util.parallel import Overlap, Parallelism

    return Parallelism.of(args.workers, Overlap(getattr(args, "overlap", "auto")))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="kg", description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"kg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("parse", help="print the unique papers of listings as JSON Lines")
    p.add_argument("files", nargs="+", metavar="FILE", help="listings (- reads standard input)")
    _add_input_options(p)
    _add_progress_options(p)
    p.set_defaults(func=_cmd_parse)

    p = sub.add_parser("extract", help="print the mentions of each paper as JSON Lines")
    p.add_argument("files", nargs="+", metavar="FILE", help="listings (- reads standard input)")
    _add_workers_option(p, "processes for extraction (default: all usable cores)")
    p.add_argument("--keywords", action="store_true",
                   help="also print keyword mentions (layer \"keyword\"): phrases outside the "
                        "concept vocabulary that a learned filter accepts; about 1 ms an "
                        "abstract more; not yet in the graph (kg build leaves them out)")
    _add_input_options(p)
    _add_progress_options(p)
    p.set_defaults(func=_cmd_extract)

    p = sub.add_parser("build", help="build the graph, store, views and report")
    p.add_argument("files", nargs="*", metavar="FILE", help="listings (default: bundled sample; - reads standard input)")
    p.add_argument("-o", "--output", default="output", help="output folder (default: output)")
    p.add_argument("--base", default=None, help="base IRI of minted resources")
    p.add_argument(
        "--rdf-format",
        action="append",
        choices=["turtle", "nt", "jsonld"],
        default=None,
        help="extra RDF serialisations besides graph.ttl (repeatable)",
    )
    _add_workers_option(p, "cores to use: extraction processes, then stages side by side "
                           "(default: all usable cores; 1 runs every stage one after another)")
    p.add_argument("--overlap", choices=["auto", "load", "compact", "none"], default="auto",
                   help="with more than one core, how the other stages overlap the RDF "
                        "stage: from right after extraction (load), from the end of the "
                        "store's bulk load (compact), not at all (none); default: by the "
                        "build's size (auto). The outputs are the same with each")
    p.add_argument("--people", default=None, metavar="FILE",
                   help="a people file: names to merge ('merge: A = B') or exclude "
                        "('exclude: NAME')")
    _add_input_options(p)
    _add_progress_options(p)
    p.set_defaults(func=_cmd_build)

    # --- commands that read a built graph (filled in by their issues) ------
    p = sub.add_parser("query", help="run a named query, a .rq file or inline SPARQL")
    p.add_argument("query")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--format", dest="out_format", default="table",
                   choices=["table", "csv", "tsv", "json"])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--store", default=None, help="embedded store folder (default: output/store)")
    g.add_argument("--endpoint", default=None, help="a SPARQL 1.1 endpoint URL")
    p.add_argument("--from", dest="from_dir", default="output", help="a build folder")
    _add_server_options(p, "give up on the endpoint after this long in all (default: 120)")
    p.add_argument("--allow-service", action="store_true",
                   help="let the embedded store run SERVICE clauses (requests to other servers)")
    p.add_argument("--no-formula-guard", dest="formula_guard", action="store_false",
                   help="csv, tsv: write cells starting with = + - @ as they are "
                        "(default: a leading ')")
    p.set_defaults(func=_cmd_query)

    p = sub.add_parser("queries", help="list the named queries and their parameters")
    p.set_defaults(func=_cmd_queries)

    p = sub.add_parser("coauthors", help="co-authorship statistics")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--from", dest="from_dir", default="output", help="a build folder")
    p.add_argument("--track", default=None,
                   help="only the papers of this track (its label, area or subarea; any case)")
    p.add_argument("--concept", default=None,
                   help="only the papers about this concept (mentioning it, a narrower concept "
                        "or an entity under one), by any of its names; with --track, about it "
                        "in that track")
    p.add_argument("--people", default=None, metavar="FILE",
                   help="a people file applied to the build's author lists first")
    p.set_defaults(func=_cmd_coauthors)

    p = sub.add_parser("viz", help="write an interactive HTML view")
    p.add_argument("view", choices=["kg", "concepts", "coauthors", "ego", "track", "entity",
                                    "entities"])
    p.add_argument("arg", nargs="?", default=None,
                   help="the author (ego), track, or entity the view is about")
    p.add_argument("--radius", type=int, default=1, choices=[1, 2],
                   help="ego view: co-authors up to this many steps away (default: 1)")
    p.add_argument("--full", action="store_true",
                   help="kg view: every paper, person, track and entity, not the overview")
    p.add_argument("-o", "--output", default=None, help="HTML file to write")
    p.add_argument("--from", dest="from_dir", default="output", help="a build folder")
    p.set_defaults(func=_cmd_viz)

    p = sub.add_parser("push", help="load the built graph into a SPARQL server")
    p.add_argument("--endpoint", required=True, help="the server's SPARQL query URL")
    p.add_argument("--graph", default=None, help="the named graph to replace")
    _add_server_options(p, "give up after this long in all (default: 3600)")
    p.add_argument("--from", dest="from_dir", default="output", help="a build folder")
    p.add_argument("--clean", action="store_true", help="only drop the temporary graphs "
                   "interrupted pushes left on the server (every push does this first too)")
    p.add_argument("--batch", type=positive_count, default=None, metavar="TRIPLES",
                   help="triples per request, or per file with --bulk (default: 100000)")
    p.add_argument("--bulk", default=None, metavar="DIR", help="Virtuoso: files under DIR for "
                   "the server's bulk loader (DIR must be in its DirsAllowed)")
    p.add_argument("--loaders", type=positive_count, default=2, help="--bulk: loaders side by side")
    _add_progress_options(p)
    p.set_defaults(func=_cmd_push)
    return parser


def _progress(args: argparse.Namespace) -> Progress:
    from kg.util.progress import Progress

    return Progress(quiet=getattr(args, "quiet", False), verbose=getattr(args, "verbose", False))


def _read(args: argparse.Namespace) -> Corpus:
    """The corpus of the command's inputs; inputs without a readable paper are an error
    (one line, with the first warning that says why)."""
    from kg.parse import read_corpus

    fmt = None if args.input_format == "auto" else args.input_format
    corpus = read_corpus(args.files, format=fmt, max_bytes=args.max_bytes)
    if not corpus.papers:
        first = f"; first warning: {corpus.warnings[0]}" if corpus.warnings else ""
        raise KgError(f"no readable paper in {', '.join(map(str, args.files)) or 'the input'} "
                      f"({corpus.entries} entries{first})")
    return corpus


def _report_corpus(corpus: Corpus, args: argparse.Namespace) -> None:
    """Warnings and the closing count line, on stderr."""
    if getattr(args, "quiet", False):
        return
    shown = corpus.warnings if getattr(args, "verbose", False) else corpus.warnings[:20]
    for w in shown:
        print(f"kg: warning: {w}", file=sys.stderr)
    if len(corpus.warnings) > len(shown):
        print(f"kg: ... {len(corpus.warnings) - len(shown)} more warnings (--verbose shows all)",
              file=sys.stderr)
    print(
        f"kg: {corpus.entries} entries read, {len(corpus.papers)} papers, "
        f"{corpus.merged} merged, {corpus.skipped} skipped",
        file=sys.stderr,
    )


def _cmd_parse(args: argparse.Namespace) -> int:
    from kg.parse import paper_to_json

    corpus = _read(args)
    out = sys.stdout
    for paper in corpus.papers:
        out.write(json.dumps(paper_to_json(paper), ensure_ascii=False) + "\n")
    out.flush()
    _report_corpus(corpus, args)
    return EXIT_OK


def _cmd_extract(args: argparse.Namespace) -> int:
    from kg.extract import extract_chunks, extraction_to_json, with_cleaning_warnings

    corpus = _read(args)
    for chunk in extract_chunks(corpus, _parallelism(args), progress=_progress(args),
                                keywords=args.keywords):
        for ex in chunk.extractions:
            sys.stdout.write(json.dumps(extraction_to_json(ex), ensure_ascii=False) + "\n")
    sys.stdout.flush()
    _report_corpus(with_cleaning_warnings(corpus), args)
    return EXIT_OK


def _cmd_build(args: argparse.Namespace) -> int:
    from kg.build.pipeline import build

    result = build(
        args.files or None,
        Path(args.output),
        input_format=None if args.input_format == "auto" else args.input_format,
        max_bytes=args.max_bytes,
        base=args.base,
        rdf_formats=tuple(args.rdf_format or ()),
        parallelism=_parallelism(args),
        progress=_progress(args),
        people=args.people,
    )
    _report_corpus(result.corpus, args)
    if result.shrank:
        print(f"kg: warning: {args.output}/ now holds {len(result.corpus.papers):,} papers; the "
              f"build it replaced had {result.replaced_papers:,} (check the inputs)",
              file=sys.stderr)
    if not args.quiet:
        print(f"kg: wrote {args.output}/ ({', '.join(result.files)})", file=sys.stderr)
    return EXIT_OK


def _cmd_query(args: argparse.Namespace) -> int:
    from kg import queries
    from kg.errors import QueryError
    from kg.queries.results import format_result
    from kg.store.connect import open_store

    params: dict[str, str] = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise QueryError(f"--param {item!r}: expected NAME=VALUE")
        params[name.strip()] = value
    if args.endpoint:
        from kg.store.http import check_endpoint

        check_endpoint(args.endpoint)  # a malformed URL fails before any work
    query = queries.prepare(args.query, params)  # a bad query fails before any store opens
    reads_build = not (args.store or args.endpoint)
    with _reading(args.from_dir if reads_build else None):
        store = open_store(args.store, args.endpoint, args.from_dir, user=args.user,
                           password=args.password, timeout=args.timeout,
                           allow_service=args.allow_service,
                           max_response=args.max_response)
        try:
            result = queries.run(store, query)
        finally:
            store.close()
    sys.stdout.write(format_result(result, args.out_format, formula_guard=args.formula_guard))
    sys.stdout.flush()
    return EXIT_OK


def _cmd_queries(args: argparse.Namespace) -> int:
    from kg.queries import listing

    sys.stdout.write(listing())
    return EXIT_OK


def _cmd_coauthors(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from kg.analysis import analyse
    from kg.build.graph_stage import scope_build, tables, track_build
    from kg.build.read import load_build

    rules = None
    if args.people:
        from kg.parse.people import apply_people, read_people

        rules = read_people(args.people)  # a bad file fails before the build is read
    with _reading(args.from_dir):
        build = load_build(args.from_dir)
    if rules is not None:
        build = replace(build, corpus=apply_people(build.corpus, rules))
    if args.concept:
        with _reading(args.from_dir):
            build = scope_build(build, args.from_dir, args.concept, args.track)
        where = f"about {args.concept!r}" + (f" in track {args.track!r}" if args.track else "")
    elif args.track:
        build, where = track_build(build, args.track), f"track {args.track!r}"
    if args.concept or args.track:
        print(f"kg: {where}: {len(build.corpus.papers):,} papers", file=sys.stderr)
    report = analyse(build).report
    if args.json:
        from kg.util.safetext import json_for_terminal

        text = json.dumps(report.to_json(), ensure_ascii=False, indent=2)
        sys.stdout.write(json_for_terminal(text) + "\n")
        return EXIT_OK
    from rich.console import Console

    console = Console()
    for item in tables(report):
        console.print(item)
    return EXIT_OK


def _cmd_viz(args: argparse.Namespace) -> int:
    from kg.build.read import load_build
    from kg.util import fsio
    from kg.viz import to_html, view

    out = _view_path(args.output, f"{args.view}.html")
    with _reading(args.from_dir):
        build = load_build(args.from_dir)
    options: dict[str, object] = {"radius": args.radius} if args.view == "ego" else {}
    if args.view == "kg" and args.full:
        options["full"] = True
    net = view(build, args.view, args.arg, **options)
    try:
        fsio.write_text(out, to_html(net))
    except OSError as exc:
        raise OutputFolderError(f"cannot write {out}: {exc.strerror}") from None
    print(f"kg: wrote {out} ({len(net.nodes):,} nodes, {len(net.edges):,} links)", file=sys.stderr)
    return EXIT_OK


def _reading(folder: str | None) -> AbstractContextManager[object]:
    """Read a build folder as one build (refused mid-publish), or nothing to check."""
    from contextlib import nullcontext

    from kg.build.folder import reading

    return nullcontext() if folder is None else reading(folder)


def _view_path(given: str | None, default: str) -> Path:
    """Where ``kg viz`` writes: a folder gets ``default`` inside it, a link its target."""
    if given is None:
        return Path(default)
    out = Path(given)
    if out.is_symlink() and not out.exists():
        raise OutputFolderError(f"{given} is a symbolic link to {os.readlink(out)}, "
                                "which does not exist")
    if out.is_dir():
        return out / default
    target = Path(os.path.realpath(out)) if out.is_symlink() else out
    if not target.absolute().parent.is_dir():
        raise OutputFolderError(f"cannot write {given}: the folder {target.parent} does not "
                                "exist")
    return target


def _cmd_push(args: argparse.Namespace) -> int:
    from kg.store.http import MAX_RESPONSE
    from kg.store.push import PUSH_TIMEOUT, clean, push

    timeout: float = args.timeout or PUSH_TIMEOUT
    max_response: int = args.max_response or MAX_RESPONSE
    if args.clean:
        gone = clean(args.endpoint, args.user, args.password, timeout=timeout,
                     max_response=max_response)
        if not args.quiet:
            print(f"kg: dropped {gone} temporary graph{'s' * (gone != 1)} of interrupted "
                  "pushes", file=sys.stderr)
        return EXIT_OK
    with _reading(args.from_dir):
        done = push(Path(args.from_dir), args.endpoint, args.graph, args.user, args.password,
                    progress=False if args.quiet else None, timeout=timeout,
                    max_response=max_response, batch_triples=args.batch,
                    bulk=args.bulk, loaders=args.loaders)
    if not args.quiet:
        print(f"kg: {done.summary()}", file=sys.stderr)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    import threading

    main_thread = threading.current_thread() is threading.main_thread()
    termination.reset()
    previous = signal.signal(signal.SIGTERM, termination.on_sigterm) if main_thread else None
    previous_hook, sys.unraisablehook = sys.unraisablehook, termination.unraisable
    try:
        status: int = args.func(args)
        return status
    except KgError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return EXIT_USAGE if isinstance(exc, OutputFolderError) else EXIT_ERROR
    except KeyboardInterrupt:
        print("kg: interrupted", file=sys.stderr)
        return 130
    except termination.Terminated:
        print("kg: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:   # the system refused (a full disk, a folder gone): one line
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"kg: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    except (RecursionError, MemoryError) as exc:
        print(f"kg: error: the input is too deeply nested or too large to read "
              f"({type(exc).__name__})", file=sys.stderr)
        return EXIT_ERROR
    finally:
        sys.unraisablehook = previous_hook
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
