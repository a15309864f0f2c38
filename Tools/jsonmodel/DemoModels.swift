import Foundation
import JSONModelKit

// The models `jsonmodel demo` reads `SampleData.storeOrders` with, declared as the README and the getting-started article show.

/// One order of the sample page.
final class Order: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(UInt64.self)
        p.number(String.self)
        p.placedAt(Date?.self)
        p.status(String.self, enumValues: ["processing", "shipped", "cancelled"])
        p.customer(Customer.self)
        p.items([LineItem].self)
        p.shipping(Shipping.self)
        p.payment(Payment?.self)
        p.giftMessage(String?.self)
        p.notes(String?.self)
    }
}

final class Customer: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.name(String.self)
        p.email(String.self)
        p.loyaltyMember(Bool.self)
        p.city(String.self, jsonPath: "address.city")
        p.country(String.self, jsonPath: "address.country")
    }
}

final class LineItem: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.sku(String.self)
        p.title(String.self)
        p.quantity(Int.self, default: 1)
        p.unitPrice(Decimal.self)
    }
}

final class Shipping: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.carrier(String.self)
        p.price(Double.self)
        p.tracking(String?.self)
    }
}

/// A payment; the JSON's `method` picks the subclass.
class Payment: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.method(String.self)
    }

    override class func modelClass(for json: JSONView) -> JSONModel.Type {
        switch json["method"]?.stringValue {
        case "card": CardPayment.self
        case "transfer": TransferPayment.self
        default: self
        }
    }
}

final class CardPayment: Payment, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.brand(String.self)
        p.last4(String.self)
    }
}

final class TransferPayment: Payment, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.iban(String.self)
    }
}
