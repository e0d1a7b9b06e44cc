"""A pytest plugin that lets the A2A conformance kit (a2a-tck, 1.0 line) run against Switchboard.

Loaded by run-tck.sh with `-p tck_plugin`; it changes nothing in the kit's checkout. Besides
registering the kit's markers, it does three things, each driven by the environment:

TCK_SUT_ORIGIN, TCK_SUT_TOKEN
    Switchboard's A2A routes need a bearer token and the kit sends none. Every request to that
    origin, except the agent card fetch, gets `Authorization: Bearer $TCK_SUT_TOKEN`. The card fetch
    goes out exactly as the kit sends it (no Authorization, no A2A-Version), so a header-less run
    tests what a header-less client gets.
TCK_CARD_A2A_VERSION
    When set (e.g. "1.0"), the card fetch carries `A2A-Version: $TCK_CARD_A2A_VERSION`: the run
    "with the header" of docs/conformance.md.
(always)
    The kit's gRPC stubs are generated for protobuf 6 and check the runtime's version through
    google.protobuf.runtime_version, which Debian's python3-protobuf (4.21) does not have. A stand-in
    that accepts any version is installed when the real module is missing; the stubs otherwise load
    on 4.21 (the C++ implementation), and Switchboard serves no gRPC, so they are only imported.
"""

from __future__ import annotations

import enum
import os
import sys
import types
from urllib.parse import urlsplit

import httpx

CARD_PATH = "/.well-known/agent-card.json"


def _install_runtime_version_stand_in() -> None:
    try:
        import google.protobuf.runtime_version  # noqa: F401
    except ImportError:
        module = types.ModuleType("google.protobuf.runtime_version")

        class Domain(enum.Enum):
            GOOGLE_INTERNAL = 1
            PUBLIC = 2

        def ValidateProtobufRuntimeVersion(*_args, **_kwargs) -> None:  # noqa: N802 (protobuf's name)
            return None

        module.Domain = Domain
        module.ValidateProtobufRuntimeVersion = ValidateProtobufRuntimeVersion
        sys.modules["google.protobuf.runtime_version"] = module
        import google.protobuf

        google.protobuf.runtime_version = module


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


_SUT_ORIGIN = _origin(os.environ["TCK_SUT_ORIGIN"]) if os.environ.get("TCK_SUT_ORIGIN") else None
_TOKEN = os.environ.get("TCK_SUT_TOKEN") or None
_CARD_VERSION = os.environ.get("TCK_CARD_A2A_VERSION") or None


def _decorate(request: httpx.Request) -> None:
    if _SUT_ORIGIN is None or _origin(str(request.url)) != _SUT_ORIGIN:
        return
    if request.url.path == CARD_PATH:
        if _CARD_VERSION and "a2a-version" not in request.headers:
            request.headers["A2A-Version"] = _CARD_VERSION
        return
    if _TOKEN and "authorization" not in request.headers:
        request.headers["Authorization"] = f"Bearer {_TOKEN}"


def _wrap_send(cls: type) -> None:
    original = cls.send
    if getattr(original, "_switchboard_wrapped", False):
        return
    if cls is httpx.AsyncClient:

        async def send(self, request, *args, **kwargs):
            _decorate(request)
            return await original(self, request, *args, **kwargs)

    else:

        def send(self, request, *args, **kwargs):
            _decorate(request)
            return original(self, request, *args, **kwargs)

    send._switchboard_wrapped = True
    cls.send = send


_install_runtime_version_stand_in()
_wrap_send(httpx.Client)
_wrap_send(httpx.AsyncClient)


def pytest_configure(config) -> None:
    """Registers the kit's markers (its pyproject.toml's, which run-tck.sh's pytest.ini replaces)."""
    try:
        import tomllib

        with open(config.rootpath / "pyproject.toml", "rb") as file:
            markers = tomllib.load(file)["tool"]["pytest"]["ini_options"]["markers"]
    except (OSError, KeyError, ImportError, ValueError):
        return
    for marker in markers:
        config.addinivalue_line("markers", marker)


def pytest_report_header(config) -> list[str]:  # noqa: ARG001 (pytest's hook signature)
    card = f"A2A-Version: {_CARD_VERSION}" if _CARD_VERSION else "no A2A-Version header"
    auth = "bearer token" if _TOKEN else "no token"
    return [f"switchboard tck_plugin: card fetched with {card}; other requests to {_SUT_ORIGIN} with {auth}"]
