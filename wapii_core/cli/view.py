"""``wapii view``: every sample of one or more runs in the browser, served locally or written as static files."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from wapii_core.cli.options import QuietOption


def view_command(
    run_dirs: list[Path] = typer.Argument(..., help="Run directories, or folders of them (every run directory "
                                                    "below a folder, listed to filter, sort and open side by "
                                                    "side)."),
    port: int = typer.Option(0, "--port", "-p", min=0, max=65535,
                             help="Port on 127.0.0.1 to serve on (default: any free port)."),
    bundle: Optional[Path] = typer.Option(None, "--bundle", "-b",
                                          help="Write the viewer as static files into this directory "
                                               "(DIR/index.html; opens from disk or any static host) "
                                               "instead of serving it."),
    open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the page in the browser."),
    quiet: QuietOption = False,
) -> None:
    """Browse the samples of runs: the report's tables, a filterable list, each sample's whole story."""
    import tempfile
    import webbrowser

    from wapii_core.cli.interrupt import Interrupted
    from wapii_core.cli.progress import progress_bars
    from wapii_core.view.bundle import write_bundle
    from wapii_core.view.runs import run_directories
    from wapii_core.view.serve import bind

    run_dirs = run_directories(run_dirs)
    if bundle is not None:
        with progress_bars(not quiet) as progress:
            index = write_bundle(run_dirs, bundle, progress)
        typer.echo(f"wrote {index}")
        if open_browser:
            webbrowser.open(index.resolve().as_uri())
        return
    with tempfile.TemporaryDirectory(prefix="wapii-view-") as tmp:
        site = Path(tmp) / "site"
        site.mkdir()
        server = bind(site, port)  # before the data is written: a port in use is refused at once
        with progress_bars(not quiet) as progress:
            write_bundle(run_dirs, site, progress)
        import threading

        from wapii_core.view.serve import refresh_while_written

        stop = threading.Event()
        threading.Thread(target=refresh_while_written, args=(run_dirs, site, stop), daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        typer.echo(f"serving {len(run_dirs)} run(s) at {url} (Ctrl-C to stop)")
        if open_browser:
            webbrowser.open(url)
        try:
            server.serve_forever()
        except (KeyboardInterrupt, Interrupted):
            typer.echo("stopped")
        finally:
            stop.set()
            server.server_close()
