import Foundation
import PerfKitCore
import Testing

/// The arguments of one case of a parameterized test, as ``TestCase`` values.
///
/// Swift Testing's public interface tells only whether a case is parameterized; its arguments (the
/// values and their parameters' names) are read by reflection of `Test.Case`'s stored fields. When
/// a later Swift Testing stores them otherwise, ``read(_:function:)`` returns nil and the trait
/// refuses to merge the cases (an error naming the test), never a silent overwrite.
package enum TestCaseArguments {
    /// The case of `testCase` for the test function `function`, or nil when the case is not
    /// parameterized or its arguments cannot be read.
    package static func read(_ testCase: Test.Case?, function: String) -> TestCase? {
        guard let testCase, testCase.isParameterized else { return nil }
        guard let arguments = arguments(of: testCase), !arguments.isEmpty else { return nil }
        return TestCase(function: function, arguments: arguments)
    }

    private static func arguments(of testCase: Test.Case) -> [TestCase.Argument]? {
        // Case(_kind: .parameterized(arguments: [Argument(value:, id:, parameter: Parameter(firstName:))], …))
        guard let kind = child("_kind", of: testCase),
            let payload = Mirror(reflecting: kind).children.first?.value,
            let list = child("arguments", of: payload)
        else { return nil }
        var result: [TestCase.Argument] = []
        for argument in Mirror(reflecting: list).children.map(\.value) {
            guard let value = child("value", of: argument), let parameter = child("parameter", of: argument),
                let name = child("firstName", of: parameter) as? String
            else { return nil }
            result.append(
                TestCase.Argument(name: name, value: String(describingForTest: value), number: number(value)))
        }
        return result
    }

    private static func child(_ label: String, of value: Any) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == label }?.value
    }

    /// An integer or floating-point argument as a number.
    private static func number(_ value: Any) -> Double? {
        switch value {
        case let v as any BinaryInteger: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        default: nil
        }
    }
}
