import DocSync
import Foundation
import TestSupport
import Testing

/// Versions of one docset side by side (Zeal #208): `docsync install --side-by-side` keeps each version as its own
/// docset (`NAME@VERSION.docset`, the newest keeps `NAME.docset`), each named and titled in its `meta.json` so that
/// Zeal's rules (`ZealLoadRules`, from docset.cpp, which key docsets by name) accept every one; every command
/// addresses one version as `NAME@VERSION`.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct SideBySideTests {
    static func docset(_ name: String, _ version: String?, title: String? = nil) -> InstalledDocset {
        InstalledDocset(name: name, title: title, version: version, path: "/r/\(name).docset")
    }

    @Test func addressesResolve() {
        let installed = [Self.docset("Python_3", "3.13"), Self.docset("Python_3@3.12", "3.12"), Self.docset("Go", nil)]
        #expect(DocsetAddress.resolve("Python_3", in: installed)?.name == "Python_3")
        #expect(DocsetAddress.resolve("python_3@3.13", in: installed)?.name == "Python_3")
        #expect(DocsetAddress.resolve("Python_3@3.12", in: installed)?.name == "Python_3@3.12")
        #expect(DocsetAddress.resolve("Python_3@3.11", in: installed) == nil)
        #expect(DocsetAddress.resolve("go", in: installed)?.name == "Go")
        #expect(DocsetAddress.versions(of: "python_3", in: installed) == ["Python_3@3.12", "Python_3@3.13"])
        #expect(
            DocsetAddress.problem("Python_3@3.11", in: installed)
                == "no version 3.11 of Python_3 is installed (installed: Python_3@3.12, Python_3@3.13)")
        #expect(DocsetAddress.problem("Python_3@3.12", in: installed) == nil)
        #expect(DocsetAddress.problem("Rust@1", in: installed) == nil)  // an unknown name: reported as such
        #expect(DocsetAddress.split("@x") == nil && DocsetAddress.split("x@") == nil)
        #expect(DocsetAddress.split("a@b@c")! == ("a@b", "c"))
    }

    /// `--docset NAME@VERSION` and `[[group]]` members naming versions select one version: a kept one by its own
    /// name, the newest by its version.
    @Test func searchSelectsVersions() throws {
        let dir = try TemporaryDirectory("side-by-side")
        defer { dir.remove() }
        let newest = try IndexFixture.dash("C", in: dir.appending("a"), Samples.dash)
        let kept = try IndexFixture.dash("C@10", in: dir.appending("b"), Samples.dash)
        let index = DocsetIndex(
            docsets: [
                IndexedDocset(name: "C", version: "11", path: newest),
                IndexedDocset(name: "C@10", version: "10", path: kept),
            ], stateDirectory: dir.appending("state"), groups: DocsetGroups(["old": ["c@10"], "new": ["C@11"]]))
        func docsets(_ selectors: [String]) -> Set<String> {
            Set(index.searchBlocking(SearchQuery("printf", docsets: selectors, limit: 50)).hits.map(\.docset))
        }
        #expect(docsets([]) == ["C", "C@10"])
        #expect(docsets(["C@11"]) == ["C"])
        #expect(docsets(["C@10"]) == ["C@10"])
        #expect(docsets(["@old"]) == ["C@10"] && docsets(["@new"]) == ["C"])
        #expect(docsets(["C@9"]).isEmpty)
    }

    @Test func thePlanKeepsTheNewestAsName() {
        func plan(_ version: String, _ installed: [InstalledDocset]) -> SideBySidePlan {
            SideBySidePlan.plan(name: "P", version: version, title: "Py", installed: installed)
        }
        #expect(plan("2", []) == SideBySidePlan(name: "P", title: "Py 2", demotion: nil))
        let one = [Self.docset("P", "1", title: "Py 1")]
        #expect(plan("1", one) == SideBySidePlan(name: "P", title: "Py 1", demotion: nil))  // the same again
        #expect(
            plan("2", one)
                == SideBySidePlan(name: "P", title: "Py 2", demotion: .init(version: "1", name: "P@1", title: "Py 1")))
        #expect(plan("0.9", one) == SideBySidePlan(name: "P@0.9", title: "Py 0.9", demotion: nil))
        #expect(plan("1.10", [Self.docset("P", "1.9", title: "Py")]).demotion?.title == "Py 1.9")
        let two = one + [Self.docset("P@0.9", "0.9")]
        #expect(plan("0.9", two) == SideBySidePlan(name: "P@0.9", title: "Py 0.9", demotion: nil))
        #expect(SideBySidePlan.problem(name: "P", installed: [Self.docset("P", nil)]) != nil)
        #expect(SideBySidePlan.problem(name: "P", installed: one) == nil)
    }

    @Test func installsVersionsSideBySide() throws {
        let dir = try TemporaryDirectory("side-by-side")
        defer { dir.remove() }
        let root = EntriesCommandTests.Root(dir: dir)
        let source = try IndexFixture.dash("P", in: dir.appending("sources"), Samples.dash)
        for page in ["c/printf.html", "c/sprintf.html", "c/limits.html", "cpp/vector.html", "guides/printing.html"] {
            let file = "\(source)/Contents/Resources/Documents/\(page)"
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("<html>\(page)</html>".utf8).write(to: URL(fileURLWithPath: file))
        }
        let archive = dir.appending("P.tgz")
        try IndexFixture.archive(source, to: archive)
        func install(_ version: String) throws -> Tool.Result {
            try root.run([
                "install", archive, "--root", root.root, "--name", "P", "--title", "Py", "--version", version,
                "--side-by-side",
            ])
        }
        let noVersion = try root.run(["install", archive, "--root", root.root, "--name", "P", "--side-by-side"])
        #expect(noVersion.status == 64 && noVersion.standardError.contains("--side-by-side needs --version"))
        // Over a docset installed without a version there is no name to keep it under: refused, nothing changes.
        #expect(try root.run(["install", archive, "--root", root.root, "--name", "Q"]).status == 0)
        let q = try root.run(["install", archive, "--root", root.root, "--name", "Q", "--version", "2", "--side-by-side"])
        #expect(q.status == 64 && q.standardError.contains("Q is installed without a version"), "\(q)")
        #expect(!FileManager.default.fileExists(atPath: "\(root.root)/Q@2.docset"))
        #expect(try root.run(["remove", "Q", "--root", root.root, "--state", root.state]).status == 0)

        #expect(try install("3.12").status == 0)
        let newer = try install("3.13")
        #expect(newer.status == 0 && newer.standardOutput.contains("kept P@3.12 beside it (Py 3.12)"), "\(newer)")
        #expect(try install("3.11").status == 0)

        var names: [String] = []
        let kept = [("P", "Py 3.13", "3.13"), ("P@3.12", "Py 3.12", "3.12"), ("P@3.11", "Py 3.11", "3.11")]
        for (folder, title, version) in kept {
            let name = folder
            let path = "\(root.root)/\(folder).docset"
            let meta =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: "\(path)/meta.json"))) as? [String: Any]
            #expect(
                meta?["name"] as? String == name && meta?["title"] as? String == title, "\(String(describing: meta))")
            #expect(meta?["version"] as? String == version)
            let problems = try ZealLoadRules.check(path).problems
            #expect(problems.isEmpty, "Zeal loads \(folder): \(problems)")
            names.append(meta?["name"] as? String ?? "")
        }
        #expect(Set(names).count == 3, "Zeal keys docsets by name: each version needs its own")

        let status = try root.run(["status", "--root", root.root, "--state", root.state, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let listed = (object?["docsets"] as? [[String: Any]] ?? []).map { "\($0["name"]!)=\($0["version"]!)" }
        #expect(listed == ["P=3.13", "P@3.11=3.11", "P@3.12=3.12"], "\(status)")

        // NAME@VERSION everywhere: the newest by its version too.
        let reading = ["--root", root.root, "--state", root.state]
        let entries = try root.run(["entries", "P@3.12", "--json"] + reading)
        #expect(entries.status == 0, "\(entries)")
        #expect(entries.standardOutput.split(separator: "\n").count == Samples.dash.count)
        let search = try root.run(["search", "printf", "--docset", "P@3.12", "--json"] + reading)
        #expect(search.status == 0 && search.standardOutput.contains(#""docset":"P@3.12""#), "\(search)")
        let newest = try root.run(["search", "printf", "--docset", "P@3.13", "--json", "--limit", "1"] + reading)
        #expect(newest.status == 0 && newest.standardOutput.contains(#""docset":"P""#), "\(newest)")
        let page = try root.run(["cat", "P@3.11", "index.html"] + reading)
        #expect(page.status == 0 && page.standardOutput == "<html>P</html>", "\(page)")
        for command in [
            ["entries", "P@9"], ["cat", "P@9", "x.html"], ["search", "x", "--docset", "P@9"],
            ["search", "--text", "x", "--docset", "P@9"], ["verify", "P@9"],
        ] {
            let unknown = try root.run(command + reading)
            #expect(unknown.status == 64, "\(command): \(unknown)")
            #expect(
                unknown.standardError.contains("no version 9 of P is installed (installed: P@3.11, P@3.12, P@3.13)"))
        }
        let verify = try root.run(["verify", "P@3.12"] + reading)
        #expect(verify.status == 0 && verify.standardOutput.contains("P@3.12"), "\(verify)")

        // A lease held until standard input ends (here at once).
        func lease(_ address: String) throws -> Tool.Result {
            let script = "exec \"$0\" lease \"$1\" --root \"$2\" --state \"$3\" </dev/null"
            return try Tool.run(
                "/bin/sh", ["-c", script, Tool.docsyncBinary, address, root.root, root.state],
                environment: root.environment)
        }
        let held = try lease("P@3.12")
        #expect(held.status == 0 && held.standardOutput.contains(#""name":"P@3.12""#), "\(held)")
        let noLease = try lease("P@9")
        #expect(noLease.status == 64 && noLease.standardError.contains("no version 9 of P"), "\(noLease)")

        let removed = try root.run(["remove", "P@3.11"] + reading)
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: "\(root.root)/P@3.11.docset"))
        let missing = try root.run(["remove", "P@3.11"] + reading)
        #expect(missing.status == 64 && missing.standardError.contains("no version 3.11 of P"), "\(missing)")
        #expect(FileManager.default.fileExists(atPath: "\(root.root)/P.docset/meta.json"))
    }
}
