import DocSyncIndex
import Testing

/// The full-text query syntax, parsed into FTS5 expressions in which user text only ever appears quoted.
@Suite(.timeLimit(.minutes(5))) struct TextQueryTests {
    @Test(arguments: [
        // (query, FTS5 expression)
        ("brown", "\"brown\""),
        ("quick brown", "\"quick\" AND \"brown\""),
        ("\"quick brown\" fox", "\"quick brown\" AND \"fox\""),
        ("bro*", "\"bro\" *"),
        ("\"quick bro\"*", "\"quick bro\" *"),
        ("brown -fox", "(\"brown\") NOT \"fox\""),
        ("brown -\"red fox\" -cat", "(\"brown\") NOT \"red fox\" NOT \"cat\""),
        ("NEAR(a b) OR c", "\"NEAR(a\" AND \"b)\" AND \"OR\" AND \"c\""),
        ("col:umn ^start", "\"col:umn\" AND \"^start\""),
        ("  spaced\tout  ", "\"spaced\" AND \"out\""),
        ("c++ +++", "\"c++\""),
        ("café", "\"café\""),
    ])
    func expression(query: String, expected: String) throws {
        #expect(try TextQuery(parsing: query).expression == expected)
    }

    @Test(arguments: [
        // (query, words the message must contain)
        ("", "no word"),
        ("   ", "no word"),
        ("+++ ---", "position 5"),
        ("-fox", "only excluded"),
        ("\"unclosed phrase", "quote at position 1 is not closed"),
        ("ok \"open", "quote at position 4"),
        ("wo\"rd", "quote inside a word at position 3"),
        ("a*b", "position 2 is not at the end"),
        ("- fox", "nothing after \"-\" at position 1"),
        ("\"\"", "position 1 has no word"),
        ("\"a b\"c", "expected a space"),
    ])
    func syntaxErrorsNameThePosition(query: String, words: String) {
        do {
            _ = try TextQuery(parsing: query)
            Issue.record("\(query) parsed")
        } catch {
            #expect(error.message.contains(words), "\(query): \(error.message)")
        }
    }

    @Test func aQueryOverOneKilobyteIsRefused() {
        let long = String(repeating: "a", count: 1025)
        #expect(throws: TextQueryError.self) { try TextQuery(parsing: long) }
        #expect((try? TextQuery(parsing: String(long.prefix(1024)))) != nil)
    }

    @Test func termsAreCapped() {
        let many = (0..<33).map { "w\($0)" }.joined(separator: " ")
        #expect(throws: TextQueryError.self) { try TextQuery(parsing: many) }
    }

    @Test(arguments: [
        // (text, query, snippet)
        ("The quick brown fox", "brown", "The quick **brown** fox"),
        ("Élève au café", "eleve cafe", "**Élève** au **café**"),
        ("prefixes prefer prey", "pref*", "**prefixes** **prefer** prey"),
        ("a\u{1B}[31m red\nline", "red", "a\\e[31m **red** line"),
        ("nothing matches", "zebra", "nothing matches"),
    ])
    func snippets(text: String, query: String, snippet: String) throws {
        #expect(TextSnippet.make(text, query: try TextQuery(parsing: query)) == snippet)
    }

    @Test func aSnippetIsCutAroundTheFirstMatch() throws {
        let text = String(repeating: "filler ", count: 200) + "needle " + String(repeating: "after ", count: 200)
        let snippet = TextSnippet.make(text, query: try TextQuery(parsing: "needle"), width: 100)
        #expect(snippet.hasPrefix("…"))
        #expect(snippet.hasSuffix("…"))
        #expect(snippet.contains("**needle**"))
        #expect(snippet.count < 110)
    }
}
