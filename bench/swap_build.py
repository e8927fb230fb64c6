"""Put one build's fastjson.so in place under a development cluster.

The development tools that set two builds side by side (edit_ab.py,
store_ab.py) swap the library between runs. The copy is renamed into place,
so a backend that loads the library meanwhile sees one build or the other,
never half of one. Each new connection loads the build in place.
"""
import os
import shutil
import subprocess


def library_path(pg_config="pg_config"):
    """fastjson.so under the pkglibdir of the PostgreSQL that pg_config names."""
    libdir = subprocess.check_output([pg_config, "--pkglibdir"], text=True).strip()
    return os.path.join(libdir, "fastjson.so")


def install_build(so, lib):
    """Copy the build so over lib, renamed into place."""
    tmp = lib + ".swap"
    shutil.copyfile(so, tmp)
    os.chmod(tmp, 0o755)
    os.replace(tmp, lib)
