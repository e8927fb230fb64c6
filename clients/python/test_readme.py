#!/usr/bin/python3
"""The code blocks of the README's section "Using fastjson from applications" run as they stand.

python blocks are executed here (in clients/python), the js block as an ES
module in clients/node, the java block as the body of a main(String[] a) with
String url = a[0] (FJ_JDBC_URL) and FastjsonJdbc on the class path
(FJ_JAVA_CP, FJ_JAVA_CLASSES: where FastjsonJdbc.class is). Needs the libpq
environment and the extension.
"""
import os
import re
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS = os.path.dirname(HERE)
SECTION = os.path.join(os.path.dirname(CLIENTS), "README.md")
HEADING = "## Using fastjson from applications\n"


def section():
    """The section's text: from its heading to the next heading of its level."""
    with open(SECTION, encoding="utf-8") as f:
        text = f.read()
    start = text.index(HEADING)
    end = text.find("\n## ", start + len(HEADING))
    return text[start:end if end >= 0 else len(text)]


def blocks(lang):
    text = section()
    return re.findall(r"^```" + lang + r"\n(.*?)^```$", text, re.S | re.M)


class ReadmeTest(unittest.TestCase):
    def test_python_blocks(self):
        found = blocks("python")
        self.assertEqual(len(found), 3)
        for code in found:
            with self.subTest(block=code.splitlines()[2]):
                exec(compile(code, SECTION, "exec"), {"__name__": "readme"})

    def test_js_block(self):
        (code,) = blocks("js")
        path = os.path.join(CLIENTS, "node", ".readme_block.mjs")
        with open(path, "w", encoding="utf-8") as f:
            f.write(code)
        try:
            r = subprocess.run(["node", path], capture_output=True, text=True)
        finally:
            os.unlink(path)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_java_block(self):
        (code,) = blocks("java")
        cp = os.environ.get("FJ_JAVA_CP")
        classes = os.environ.get("FJ_JAVA_CLASSES")
        url = os.environ.get("FJ_JDBC_URL")
        if not (cp and classes and url):
            self.skipTest("FJ_JAVA_CP, FJ_JAVA_CLASSES and FJ_JDBC_URL are not set")
        src = ("import java.math.*;\nimport java.sql.*;\nimport java.util.*;\n"
               "public class ReadmeBlock {\n    public static void main(String[] a) throws Exception {\n"
               "        String url = a[0];\n" + code + "    }\n}\n")
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "ReadmeBlock.java"), "w", encoding="utf-8") as f:
                f.write(src)
            full = f"{classes}:{cp}"
            r = subprocess.run(["javac", "-d", d, "-cp", full, os.path.join(d, "ReadmeBlock.java")],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = subprocess.run(["java", "-cp", f"{d}:{full}", "ReadmeBlock", url],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr + r.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=1)
