import DBBSQLite

// Numbers beyond plain arithmetic: an integer as a `Double`, and arithmetic on optional numbers
// (an aggregate's result, an optional property), `NULL` where either side is `NULL`. Together
// they write a ratio of sums: `.double(.sum(\.value)) / .double(.sum(\.visits))`.

extension DBBExpression {
    /// The integer expression as a `Double` (`expression * 1.0`, the `1.0` bound as a double):
    /// the same IEEE double on every backend, so that a division of two of them is too.
    public static func double<Number: DBBArithmeticValue & BinaryInteger>(_ expression: DBBExpression<Root, Number>)
        -> Self where Value == Double
    {
        Self(.binary(expression.node, .times, .value(.real(1))))
    }

    /// The optional integer expression (`SUM` of an integer) as a `Double`, `nil` where it is.
    public static func double<Number: DBBArithmeticValue & BinaryInteger>(_ expression: DBBExpression<Root, Number?>)
        -> Self where Value == Double?
    {
        Self(.binary(expression.node, .times, .value(.real(1))))
    }
}

extension DBBExpression {
    /// `lhs + rhs`, `nil` where either is.
    public static func + <Number: DBBArithmeticValue>(lhs: Self, rhs: Self) -> Self where Value == Number? {
        Self(.binary(lhs.node, .plus, rhs.node))
    }
    /// `lhs - rhs`, `nil` where either is.
    public static func - <Number: DBBArithmeticValue>(lhs: Self, rhs: Self) -> Self where Value == Number? {
        Self(.binary(lhs.node, .minus, rhs.node))
    }
    /// `lhs * rhs`, `nil` where either is.
    public static func * <Number: DBBArithmeticValue>(lhs: Self, rhs: Self) -> Self where Value == Number? {
        Self(.binary(lhs.node, .times, rhs.node))
    }
    /// `lhs / rhs`, `nil` where either is: for integers, truncated toward zero. A division by
    /// zero is `NULL` on SQLite and an error on PostgreSQL: keep zero out of the divisor.
    public static func / <Number: DBBArithmeticValue>(lhs: Self, rhs: Self) -> Self where Value == Number? {
        Self(.binary(lhs.node, .divided, rhs.node))
    }

    /// `lhs + rhs`, `nil` where `lhs` is.
    public static func + <Number: DBBArithmeticValue>(lhs: Self, rhs: DBBExpression<Root, Number>) -> Self
    where Value == Number? {
        Self(.binary(lhs.node, .plus, rhs.node))
    }
    /// `lhs - rhs`, `nil` where `lhs` is.
    public static func - <Number: DBBArithmeticValue>(lhs: Self, rhs: DBBExpression<Root, Number>) -> Self
    where Value == Number? {
        Self(.binary(lhs.node, .minus, rhs.node))
    }
    /// `lhs * rhs`, `nil` where `lhs` is.
    public static func * <Number: DBBArithmeticValue>(lhs: Self, rhs: DBBExpression<Root, Number>) -> Self
    where Value == Number? {
        Self(.binary(lhs.node, .times, rhs.node))
    }
    /// `lhs / rhs`, `nil` where `lhs` is (see `/` of two optionals).
    public static func / <Number: DBBArithmeticValue>(lhs: Self, rhs: DBBExpression<Root, Number>) -> Self
    where Value == Number? {
        Self(.binary(lhs.node, .divided, rhs.node))
    }
}
