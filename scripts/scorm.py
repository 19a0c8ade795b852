#!/usr/bin/env python3
"""Trunk post-build hook: writes a SCORM 1.2 package per lesson, scorm/idemlab-lesson-X.zip.

Each zip holds imsmanifest.xml (one SCO), the built page (every file of the build but scorm/
and the other lessons' first views, which its locked lesson never opens)
and the adapter from www/scorm/: launch.html (the SCO, with the lesson filled in), scorm.js and
scorm.css. It runs before precompress.py, so the zips hold no .gz or .br copies. It edits
TRUNK_STAGING_DIR (or the directory given). The manifest names no adlcp:masteryscore: the
lab's own mastery rule decides passed or failed, and an LMS would otherwise redo it from the score.
"""

import os
import sys
import zipfile

LESSONS = ("a", "b", "c")
ADAPTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "www", "scorm")
OUT = "scorm"

MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="idemlab-lesson-{lesson}" version="1"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="idemlab">
    <organization identifier="idemlab">
      <title>{title}</title>
      <item identifier="lesson-{lesson}" identifierref="sco-{lesson}">
        <title>{title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco-{lesson}" type="webcontent" adlcp:scormtype="sco" href="launch.html">
{files}
    </resource>
  </resources>
</manifest>
"""


def page_files(directory: str) -> list:
    """The build's files, relative to it, in a stable order: all but scorm/ and copies."""
    found = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if os.path.relpath(os.path.join(root, d), directory) != OUT)
        for name in sorted(names):
            if not name.endswith((".gz", ".br")):
                found.append(os.path.relpath(os.path.join(root, name), directory).replace(os.sep, "/"))
    return found


def write(directory: str, lesson: str, files: list) -> str:
    title = f"idemlab: Lesson {lesson.upper()} and its mastery check"
    with open(os.path.join(ADAPTER, "launch.html"), encoding="utf-8") as file:
        launch = file.read().replace("{lesson}", lesson).replace("{title}", title)
    adapter = {"launch.html": launch.encode("utf-8")}
    for name in ("scorm.js", "scorm.css"):
        with open(os.path.join(ADAPTER, name), "rb") as file:
            adapter[name] = file.read()
    clash = set(adapter) & set(files)
    if clash:
        sys.exit(f"scorm.py: the build has files the adapter needs: {sorted(clash)}")
    listed = "\n".join(f'      <file href="{name}"/>' for name in sorted(adapter) + files)
    manifest = MANIFEST.format(lesson=lesson, title=title, files=listed)
    path = os.path.join(directory, OUT, f"idemlab-lesson-{lesson}.zip")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zip_file:
        # A fixed date: the same build gives the same bytes.
        def add(name, data):
            zip_file.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)

        add("imsmanifest.xml", manifest.encode("utf-8"))
        for name, data in adapter.items():
            add(name, data)
        for name in files:
            with open(os.path.join(directory, name), "rb") as file:
                add(name, file.read())
    return path


def main() -> None:
    directory = sys.argv[1] if len(sys.argv) > 1 else os.environ["TRUNK_STAGING_DIR"]
    files = page_files(directory)
    if "index.html" not in files:
        sys.exit("scorm.py: the build has no index.html")
    os.makedirs(os.path.join(directory, OUT), exist_ok=True)
    for lesson in LESSONS:
        others = tuple(f"first/{other}-" for other in LESSONS if other != lesson)
        write(directory, lesson, [name for name in files if not name.startswith(others)])


if __name__ == "__main__":
    main()
