"""Packages are found, not listed: the repository's folders become one import package.

``paifu/`` is the import root (the public API, the command line, the batch machinery);
``notation/``, ``replay/``, ``schemas/`` and ``viewer/`` stay at the top of the repository
(the design's layout) and install as ``paifu.notation``, ``paifu.replay``, ``paifu.schemas``
and ``paifu.viewer``, each with every package found under it. An editable install maps the
same names onto the same folders. ``tests/test_wheel.py`` compares the wheel with the tree.
"""

from setuptools import find_packages, setup

FOLDERS = {"paifu": "paifu", "paifu.notation": "notation", "paifu.replay": "replay",
           "paifu.schemas": "schemas", "paifu.viewer": "viewer"}

packages: list[str] = []
for name, folder in FOLDERS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_packages(folder)]

setup(packages=packages, package_dir=FOLDERS)
