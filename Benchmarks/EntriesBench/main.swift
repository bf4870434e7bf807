// Benchmarks/entries-bench's library side: iterates `DocsetEntries` over one installed docset the way an indexing
// backend would (every field of every entry touched, nothing printed per entry) and prints the entry count.
//
// usage: entries-bench-driver DOCSET_FOLDER
import DocSync
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: entries-bench-driver DOCSET_FOLDER")
    exit(64)
}
var count = 0
var bytes = 0
for try await entry in DocsetEntries(docset: IndexedDocset(name: "bench", version: nil, path: arguments[1])) {
    count += 1
    bytes &+= entry.name.utf8.count &+ entry.type.utf8.count &+ entry.rawType.utf8.count &+ entry.page.utf8.count
    bytes &+= (entry.fragment?.utf8.count ?? 0) &+ entry.urlString.utf8.count
}
print(count, bytes)
