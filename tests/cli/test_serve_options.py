"""``kismet serve``'s options for a public site become the app's protections and uvicorn's limits."""

from __future__ import annotations

import socket

import pytest

from kismet_dice.cli import build_parser, main
from kismet_dice.cli.serve_guard import GRACEFUL_SECONDS, protections, uvicorn_options
from kismet_dice.web.connections import GuardedHttp
from kismet_dice.web.guard import Protections
from kismet_dice.web.ratelimit import Rate
from tests.support.ports import free_port


def test_without_options_a_server_has_the_default_protections() -> None:
    options = build_parser().parse_args(["serve"])
    # The Host is always checked: addresses and this machine's names only, when no name is given.
    assert protections(options) == Protections(allow_hosts=())
    assert uvicorn_options(options, Protections()) == {
        "limit_concurrency": Protections().limit_concurrency,
        "proxy_headers": True,
        "forwarded_allow_ips": None,
        "access_log": False,
        "ws_per_message_deflate": False,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        "http": GuardedHttp,
    }


def test_the_options_set_the_origins_rates_limit_and_expiry() -> None:
    options = build_parser().parse_args(
        [
            "serve",
            "--allow-origin=https://a.example",
            "--allow-origin=https://b.example:8443",
            "--rate-games=5/hour",
            "--rate-actions=off",
            "--limit-concurrency=50",
            "--expire-days=7",
            "--no-proxy-headers",
            "--forwarded-allow-ips=10.0.0.2",
            "--access-log",
            "--allow-host=kismet.example",
            "--allow-host=*.kismet.example",
        ]
    )
    chosen = protections(options)
    assert chosen == Protections(
        allow_origins=("https://a.example", "https://b.example:8443"),
        allow_hosts=("kismet.example", "*.kismet.example"),
        rate_games=Rate(5, 3600.0),
        rate_actions=None,
        limit_concurrency=50,
        expire_days=7.0,
    )
    assert uvicorn_options(options, chosen) == {
        "limit_concurrency": 50,
        "proxy_headers": False,
        "forwarded_allow_ips": "10.0.0.2",
        "access_log": True,
        "ws_per_message_deflate": False,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        "http": GuardedHttp,
    }


def test_the_help_names_the_defaults_the_server_has(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    defaults = Protections()
    assert f"(default {defaults.rate_games})" in text
    assert f"(default {defaults.rate_actions})" in text
    assert f"(default {defaults.limit_concurrency})" in text
    assert f"(default {defaults.expire_days:g})" in text


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("--rate-games=lots", "a rate is like 10/min"),
        ("--allow-origin=a.example", "an origin is like https://kismet.example"),
        ("--expire-days=-1", "games expire after 0 (never)"),
        ("--limit-concurrency=0", "the concurrency limit is at least 1"),
        ("--allow-host=https://kismet.example", "a host name is like kismet.example"),
    ],
)
def test_a_wrong_option_stops_the_server_with_one_line(
    argument: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", argument]) != 0
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_a_port_another_program_listens_on_is_refused_in_one_line_before_anything_is_said_served(
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = free_port()
    with socket.socket() as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        other.bind(("127.0.0.1", port))
        other.listen()
        assert main(["serve", "--port", str(port)]) == 2
    said = capsys.readouterr()
    assert said.out == ""  # not "Kismet is served at ...": it is not
    assert said.err == (
        f"kismet: cannot serve on 127.0.0.1:{port}: address already in use "
        "(another server? --port chooses another)\n"
    )


def test_an_address_that_is_not_this_machines_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 192.0.2.0/24 is set aside for documentation: no machine has an address in it.
    assert main(["serve", "--host", "192.0.2.1", "--port", str(free_port())]) == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.startswith("kismet: cannot serve on 192.0.2.1:") and said.err.count("\n") == 1
    assert "cannot assign requested address" in said.err
