import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Writes by condition whose condition reads through a join: the rows are selected by id
/// (`id IN (SELECT … JOIN …)`), the written table stays the statement's only one.
@Suite struct JoinWriteTests {
    @Test("update and delete where a joined class's column says so: the rows Swift picks", arguments: Backend.allCases)
    func writesThroughJoins(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, JoinTests.classes) else { return }
        let manager = database.manager
        let library = try JoinTests.library(database)
        let author = Novel.join(\.author)
        let editor = Novel.leftJoin(\.editor)

        let byUS = library.novels.filter { $0.author?.country == "US" }.map(\.title).sorted()
        let updated = try Novel.update(
            .set(\.pages, to: .column(\.pages) + 1000), where: author.satisfies(\.country == "US"), manager: manager)
        #expect(updated == byUS.count && updated > 0)
        let long = try Novel.instances(where: \.pages >= 1000, manager: manager).map(\.title).sorted()
        #expect(long == byUS)

        let unedited = library.novels.filter { $0.editor == nil }.count
        let deleted = try Novel.delete(where: editor.column(\.name) == nil, manager: manager)
        #expect(deleted == unedited && deleted > 0)
        let left = try Novel.instances(manager: try database.reopen(JoinTests.classes))
        #expect(left.count == library.novels.count - unedited)
        #expect(left.allSatisfy { $0.editor != nil })
    }

    @Test("a value read through a join is refused by name before any SQL", arguments: Backend.allCases)
    func joinedValueIsRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, JoinTests.classes) else { return }
        let manager = database.manager
        let author = Novel.join(\.author)
        let error = #expect(throws: DBBError.self) {
            try Novel.update(.set(\.pages, to: author.column(\.born)), where: .all, manager: manager)
        }
        #expect(error?.kind == .invalidOption)
        #expect(error?.property == "pages")
    }
}
