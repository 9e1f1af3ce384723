"""Strict parsing of settings from the environment.

Every setting the platform reads from the environment goes through one of these helpers, so that a typo
(``DEBUG=ture``) stops the process at start-up with a clear message instead of silently meaning something else.
"""

import ipaddress
import math
import os


class SettingError(RuntimeError):
    """A setting in the environment could not be parsed."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise SettingError(f"{name}={raw!r} is not a boolean (use one of: 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise SettingError(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise SettingError(f"{name}={value} is below the minimum {minimum}")
    if maximum is not None and value > maximum:
        raise SettingError(f"{name}={value} is above the maximum {maximum}")
    return value


def env_float(name: str, default: float, *, minimum: float | None = None, maximum: float | None = None) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw.strip())
    except ValueError:
        raise SettingError(f"{name}={raw!r} is not a number") from None
    if not math.isfinite(value):
        raise SettingError(f"{name}={raw!r} is not a finite number")
    if minimum is not None and value < minimum:
        raise SettingError(f"{name}={value} is below the minimum {minimum}")
    if maximum is not None and value > maximum:
        raise SettingError(f"{name}={value} is above the maximum {maximum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_weights(name: str, *, allowed: tuple[str, ...]) -> dict[str, float]:
    """`name=weight` pairs separated by commas (`same_instances=2,display=1`), each name from `allowed`, weights
    non-negative and not all zero; an empty or unset variable gives {} (the caller's default)."""
    raw = os.environ.get(name, "")
    weights: dict[str, float] = {}
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in allowed:
            raise SettingError(f"{name}: {item!r} is not name=weight with a name from: {', '.join(allowed)}")
        try:
            weights[key] = float(value)
        except ValueError:
            raise SettingError(f"{name}: the weight of {key} is not a number") from None
        if weights[key] < 0:
            raise SettingError(f"{name}: the weight of {key} is negative")
    if weights and not any(weights.values()):
        raise SettingError(f"{name}: every weight is 0")
    return weights


def env_networks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated IP addresses or networks (`172.30.57.0/24,10.0.0.5,::1`); an unset or empty variable gives []."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise SettingError(f"{name}: {item!r} is not an IP address or network") from None
    return networks
