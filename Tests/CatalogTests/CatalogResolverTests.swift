import DocSyncCatalog
import Testing

@Suite(.timeLimit(.minutes(5))) struct CatalogResolverTests {
    static let alternates = CatalogAlternates(bases: ["https://m.test/feeds"])
    static let resolver: CatalogResolver = {
        let zeal = try! ZealCatalogParser.parse(CatalogFixtures.bytes(CatalogFixtures.zeal), alternates: alternates)
        let contrib = try! ContribIndexParser.parse(CatalogFixtures.bytes(CatalogFixtures.contrib), alternates: alternates)
        let sheets = try! CheatsheetIndexParser.parse(
            CatalogFixtures.bytes(CatalogFixtures.cheatsheets), alternates: alternates)
        return CatalogResolver(catalogs: [zeal, contrib, sheets])
    }()

    @Test(arguments: [
        ("Python_3", nil, "Python_3", CatalogSource.zeal), ("python_3", nil, "Python_3", .zeal),
        ("PY3", nil, "Python_3", .zeal), ("jestjs", nil, "Jest", .contrib),
        ("ascii", nil, "ASCII_Tables", .cheatsheets),
        ("Vim", CatalogSource.cheatsheets, "Vim", .cheatsheets), ("Vim", nil, "Vim", .cheatsheets),
    ])
    func finds(name: String, source: CatalogSource?, expected: String, from: CatalogSource) {
        guard case .found(let entry) = Self.resolver.resolve(name, source: source) else {
            Issue.record("\(name) not found")
            return
        }
        #expect(entry.name == expected && entry.source == from)
    }

    @Test(arguments: [
        ("Pyhton_3", ["Python_3"]), ("Jst", ["Jest"]), ("javascrip", ["JavaScript"]), ("Zzzzzzzz", []),
        ("C+", ["C++"]),
    ])
    func didYouMean(name: String, suggestions: [String]) {
        #expect(Self.resolver.resolve(name) == .missing(suggestions: suggestions))
    }

    @Test func sourceRestrictsTheLookup() {
        guard case .missing = Self.resolver.resolve("Jest", source: .zeal) else {
            Issue.record("Jest is a contribution, not in Zeal's catalogue")
            return
        }
    }

    @Test(arguments: [
        ("Python_3", nil, "3.12.1", "https://m.test/feeds/Python_3.tgz"),
        ("Python_3", "3.12.1", "3.12.1", "https://m.test/feeds/Python_3.tgz"),
        ("Python_3", ".10.2", "3.10.2", "https://m.test/feeds/zzz/versions/Python_3/3.10.2/Python_3.tgz"),
        ("Python_3", "3.11.4/7", "3.11.4", "https://m.test/feeds/zzz/versions/Python_3/3.11.4/Python_3.tgz"),
        ("Jest", "27.0", "27.0", "https://m.test/feeds/zzz/user_contributed/build/Jest/versions/27.0/Jest-27.tgz"),
        ("Jest", nil, "29.7", "https://m.test/feeds/zzz/user_contributed/build/Jest/Jest.tgz"),
    ])
    func pinnedVersions(name: String, version: String?, resolved: String, firstArchive: String) throws {
        guard case .found(let entry) = Self.resolver.resolve(name) else { throw CancellationError() }
        let pinned = try #require(CatalogResolver.archives(of: entry, version: version, alternates: Self.alternates))
        #expect(pinned.version == resolved)
        #expect(pinned.archives.first == firstArchive)
    }

    @Test func unknownVersionIsNil() throws {
        guard case .found(let entry) = Self.resolver.resolve("Python_3") else { throw CancellationError() }
        #expect(CatalogResolver.archives(of: entry, version: "1.0", alternates: Self.alternates) == nil)
    }

    @Test(arguments: [
        ("py", ["Python_3"]), ("java", ["JavaScript"]),
        ("", ["ASCII_Tables", "C++", "JavaScript", "Jest", "Python_3", "Vim", "Vim"]),
        ("vim", ["Vim", "Vim"]), ("tables", ["ASCII_Tables"]),
    ])
    func searchRanking(query: String, names: [String]) {
        let all = Self.resolver.catalogs.flatMap(\.entries)
        #expect(CatalogSearch.rank(all, query: query).map(\.name) == names)
    }
}
