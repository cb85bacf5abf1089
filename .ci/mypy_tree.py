"""Lay out build/mypy/groundjudge/ as the installed package looks, for mypy.

The stage folders (grounding/, judging/, ...) install as subpackages of groundjudge through setuptools'
package-dir, and the editable install finds them with an import hook, which mypy does not run. So mypy
is pointed (mypy_path in pyproject.toml) at a tree of symlinks laid from that same package-dir mapping:
build/mypy/groundjudge/grounding -> grounding/, and so on. Its errors name files under build/mypy/;
strip that prefix (and groundjudge/ for a stage folder) to get the file in the checkout.

Usage, from the repository root:  python .ci/mypy_tree.py && mypy
"""

import shutil
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "mypy"


def main() -> None:
    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    shutil.rmtree(TREE, ignore_errors=True)
    top = TREE / "groundjudge"
    top.mkdir(parents=True)
    for entry in (ROOT / package_dir["groundjudge"]).iterdir():
        if entry.suffix in (".py", ".pyi"):
            (top / entry.name).symlink_to(entry)
    for name, folder in package_dir.items():
        if name != "groundjudge":
            (TREE / name.replace(".", "/")).symlink_to(ROOT / folder, target_is_directory=True)


if __name__ == "__main__":
    main()
