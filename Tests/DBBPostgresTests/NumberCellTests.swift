#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Integer and floating-point cells are read straight from their binary form; each width, at its
/// extremes and with its special values, must read as the server's text of it says.
@Suite("PostgreSQL number cells: every width read exactly")
struct NumberCellTests {
    @Test("smallint, integer, bigint, real and double precision at their extremes, NaN, ±Infinity, -0 and NULL")
    func widths() throws {
        guard let db = try BackendDatabase(.postgresql, []) else { return }
        let rows = try db.manager.query(
            """
            SELECT (-32768)::int2, 32767::int2, (-2147483648)::int4, 2147483647::int4,
                   (-9223372036854775808)::int8, 9223372036854775807::int8,
                   (-1.5)::float4, 3.4028235e38::float4, 'NaN'::float4, '-Infinity'::float4,
                   1e-45::float4, '-0'::float8, 'Infinity'::float8, 'NaN'::float8,
                   2.2250738585072014e-308::float8, 0.1::float8, NULL::int8, NULL::float8, NULL::int2
            """)
        let values = try #require(rows.first).values
        #expect(
            Array(values[0..<6])
                == [
                    .integer(-32768), .integer(32767), .integer(-2_147_483_648), .integer(2_147_483_647),
                    .integer(.min), .integer(.max),
                ])
        let reals = values[6..<16].map { value -> Double? in
            if case .real(let real) = value { return real }
            return nil
        }
        #expect(reals[0] == -1.5)
        #expect(reals[1] == Double(Float(3.4028235e38)))
        #expect(reals[2]?.isNaN == true)
        #expect(reals[3] == -.infinity)
        #expect(reals[4] == Double(Float(1e-45)))
        #expect(reals[5] == 0 && reals[5]?.sign == .minus)
        #expect(reals[6] == .infinity)
        #expect(reals[7]?.isNaN == true)
        #expect(reals[8] == 2.2250738585072014e-308)
        #expect(reals[9] == 0.1)
        #expect(Array(values[16...]) == [.null, .null, .null])
    }
}
#endif
