import Foundation
import Testing

/// Every repository path that README, CONTRIBUTING and Documentation/ name exists (issue 62).
///
/// A newcomer following them never meets a moved or renamed file.
@Suite struct DocumentationPathTests {
    @Test func everyPathTheDocumentsNameExists() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
            .standardizedFileURL.path
        let documentation = try FileManager.default.contentsOfDirectory(atPath: root + "/Documentation")
            .filter { $0.hasSuffix(".md") }.map { "Documentation/" + $0 }
        let folders = "Sources|Tests|Scripts|Documentation|Plugins|Baselines|Reports|\\.ci"
        let pattern = try NSRegularExpression(pattern: #"(?<![\w/.-])((?:"# + folders + #")/[\w./+-]*\w)"#)
        var missing: [String] = []
        for document in ["README.md", "CONTRIBUTING.md"] + documentation.sorted() {
            let text = try String(contentsOfFile: root + "/" + document, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let path = String(text[range])
                if !FileManager.default.fileExists(atPath: root + "/" + path) { missing.append("\(document): \(path)") }
            }
        }
        #expect(missing.isEmpty, "\(missing)")
    }
}
