"""`scripts/api-surface --check | --apply` (see there): `public` only in modules that are product API.

Product API: the library products' modules (`.library` in Package.swift) and the modules DocSync re-exports
(`@_exported import` in Sources/DocSync). Every other module under Sources/ uses `package` for what the other modules
of this package need (the tests' Tests/TestSupport too). --check prints each `public` declaration elsewhere and exits 1; --apply rewrites its `public` to
`package` (`public(set)` to `package(set)`).
"""
import os
import re
import sys

# A declaration's access modifier: attributes and other modifiers may stand before it, and a declaration keyword (or
# another modifier) follows it. Comment lines are skipped; doc text inside string literals rarely has that shape.
KEYWORD = (r"(?:@|private\(set\)|fileprivate\(set\)|internal\(set\)|package\(set\)|"
           r"(?:struct|class|enum|protocol|extension|func|var|let|init|subscript|typealias|actor|static|final|"
           r"override|convenience|required|nonisolated|mutating|nonmutating|indirect|lazy|weak|unowned|dynamic|"
           r"consuming|borrowing|prefix|postfix|infix|macro|import|open)\b)")
DECLARATION = re.compile(r"^(\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:final|override|static|class|nonisolated|"
                         r"mutating|convenience|required|indirect|dynamic|lazy)\s+)*)public(\(set\))?(\s+" + KEYWORD + ")")


def product_modules():
    manifest = open("Package.swift").read()
    products = set(re.findall(r'\.library\(name: "[^"]+", targets: \["([^"]+)"', manifest))
    for root, _, files in os.walk("Sources/DocSync"):
        for name in files:
            if name.endswith(".swift"):
                text = open(os.path.join(root, name)).read()
                products |= set(re.findall(r"^@_exported (?:public )?import (\w+)", text, re.M))
    return products


def main(mode):
    products = product_modules()
    found = 0
    # Every module under Sources/, and the tests' shared library target (Tests/TestSupport).
    folders = [os.path.join("Sources", m) for m in sorted(os.listdir("Sources"))] + ["Tests/TestSupport"]
    for folder in folders:
        module = os.path.basename(folder)
        if module in products or not os.path.isdir(folder):
            continue
        for root, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(root, name)
                lines = open(path).read().split("\n")
                changed = False
                for number, line in enumerate(lines):
                    if line.lstrip().startswith("//") or not DECLARATION.match(line):
                        continue
                    found += 1
                    if mode == "--check":
                        print("%s:%d: public in %s, which is not product API: %s"
                              % (path, number + 1, module, line.strip()[:80]))
                    else:
                        lines[number] = DECLARATION.sub(
                            lambda m: m.group(1) + "package" + (m.group(2) or "") + m.group(3), line, count=1)
                        changed = True
                if changed:
                    open(path, "w").write("\n".join(lines))
    if mode == "--check" and found:
        print("scripts/api-surface: %d public declarations outside the product API (%s), above: "
              "scripts/api-surface --apply makes them package" % (found, ", ".join(sorted(products))), file=sys.stderr)
        return 1
    if mode == "--apply":
        print("scripts/api-surface: %d declarations made package (product API: %s)"
              % (found, ", ".join(sorted(products))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
