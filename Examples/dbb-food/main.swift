// dbb-food: looks foods up in a reference database that DBBBuildPlugin built at build time from
// food.dbbscript, shipped in the target's resources and attached read-only to the user's own
// database (here an in-memory one).
//
//   swift run dbb-food            # every food
//   swift run dbb-food bread      # the foods whose name contains "bread"
import DBBBuilder
import Foundation

guard let reference = Bundle.module.url(forResource: "food", withExtension: "sqlite") else {
    FileHandle.standardError.write(Data("dbb-food: the built food.sqlite is not among the resources\n".utf8))
    exit(1)
}
do {
    let manager = try DBBManager.inMemory()
    try manager.attach(databaseAt: reference, as: "reference", readOnly: true)
    let word = CommandLine.arguments.dropFirst().first ?? ""
    let foods = try manager.query(
        "SELECT name, calories FROM reference.food WHERE name LIKE ? ORDER BY name", arguments: ["%\(word)%"])
    for food in foods {
        print("\(food["name", as: String.self] ?? ""): \(food["calories", as: Int.self] ?? 0) kcal")
    }
    let version = try manager.query("SELECT version FROM reference.version")
    print("reference version \(version.first?["version", as: Int.self] ?? 0), \(foods.count) food(s)")
} catch {
    FileHandle.standardError.write(Data("dbb-food: \(error)\n".utf8))
    exit(1)
}
