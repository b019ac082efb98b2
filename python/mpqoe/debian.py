"""Python modules that come from Debian packages, installed on first use.

The report scripts run under Debian's /usr/bin/python3 and take scipy and matplotlib from
Debian (python3-scipy, python3-matplotlib) rather than from PyPI, so that every machine of the
project draws the same figures. `require` imports a module and, when it is missing and the
caller is root, installs its package with apt-get first (with an `apt-get update` when the
package lists are stale); without root it stops with the command to run.
"""

import importlib
import os
import subprocess
import sys


def _apt_install(package):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq", package]
    if subprocess.run(cmd, check=False, env=env).returncode == 0:
        return True
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
    return subprocess.run(cmd, check=False, env=env).returncode == 0


def require(module, package, who):
    """The imported module; installs the Debian package when the import fails. who names the
    calling script in messages. Exits (SystemExit) when the module cannot be had."""
    try:
        return importlib.import_module(module)
    except ImportError:
        pass
    if os.geteuid() != 0:
        raise SystemExit(f"{who}: {module} missing: apt-get install {package}")
    print(f"{who}: installing {package} (apt-get)", file=sys.stderr)
    if not _apt_install(package):
        raise SystemExit(f"{who}: apt-get install {package} failed")
    importlib.invalidate_caches()
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise SystemExit(f"{who}: {module} still missing after installing {package}: {e}") from e


def pyplot(who):
    """matplotlib.pyplot with the Agg backend (files only, no display), from Debian."""
    matplotlib = require("matplotlib", "python3-matplotlib", who)
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")
