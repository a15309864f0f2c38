/// Sample JSON bundled with the tool for `jsonmodel demo`, written for this project.
enum SampleData {
    /// A page of orders from a small online shop's API: customers with
    /// non-ASCII names, line items with decimal prices, a 20-digit id that does
    /// not fit in `Int64`, an escaped string, ISO 8601 dates, payments of three
    /// kinds (polymorphism) and one shipping price that is not a number
    /// (`"free"`, for the demo's diagnostic).
    static let storeOrders = #"""
        {
          "shop": "Kettle & Crumb Tea Supply",
          "generatedAt": "2025-03-14T09:26:53Z",
          "currency": "EUR",
          "page": {"number": 1, "size": 3, "totalOrders": 3, "next": null},
          "orders": [
            {
              "id": 12345678901234567890,
              "number": "KC-2025-000117",
              "placedAt": "2025-03-12T18:04:11+01:00",
              "status": "shipped",
              "customer": {
                "id": 4081,
                "name": "Zoë Łukasiewicz-Ørsted",
                "email": "zoe.lukasiewicz@example.org",
                "loyaltyMember": true,
                "address": {"street": "Kastanienallee 12", "city": "Berlin", "postalCode": "10435", "country": "DE"}
              },
              "items": [
                {"sku": "TEA-SEN-100", "title": "Sencha Fukamushi, 100 g", "quantity": 2, "unitPrice": 12.90},
                {"sku": "POT-KYU-350", "title": "Kyūsu teapot 350 ml", "quantity": 1, "unitPrice": 48.50},
                {"sku": "ACC-FLT-003", "title": "Paper filters (3 × 100)", "quantity": 3, "unitPrice": 3.35}
              ],
              "discount": {"code": "SPRING10", "rate": 0.10},
              "shipping": {"carrier": "DHL", "price": 4.95, "tracking": "JD014600006652817543"},
              "payment": {"method": "card", "brand": "Visa", "last4": "4242"},
              "giftMessage": "Für Mama \u2764\ufe0f \u2014 \"Tee macht alles besser\"\nAlles Liebe, Zoë",
              "notes": null
            },
            {
              "id": 9007199254740993,
              "number": "KC-2025-000118",
              "placedAt": "2025-03-13T07:45:00Z",
              "status": "processing",
              "customer": {
                "id": 5512,
                "name": "陳美玲",
                "email": "meiling.chen@example.com",
                "loyaltyMember": false,
                "address": {"street": "忠孝東路四段 181 號", "city": "臺北市", "postalCode": "106", "country": "TW"}
              },
              "items": [
                {"sku": "TEA-OOL-050", "title": "Dong Ding oolong, 50 g", "quantity": 4, "unitPrice": 9.75}
              ],
              "discount": null,
              "shipping": {"carrier": "EMS", "price": 18.00, "tracking": null},
              "payment": {"method": "transfer", "iban": "DE89 3704 0044 0532 0130 00"},
              "giftMessage": "",
              "notes": "Leave at the door \/ ring twice"
            },
            {
              "id": 1099511627776,
              "number": "KC-2025-000119",
              "placedAt": "2025-03-14T08:59:30-05:00",
              "status": "cancelled",
              "customer": {
                "id": 617,
                "name": "José Ángel Núñez",
                "email": "jose.nunez@example.net",
                "loyaltyMember": true,
                "address": {"street": "Calle de Alcalá 45", "city": "Madrid", "postalCode": "28014", "country": "ES"}
              },
              "items": [],
              "discount": null,
              "shipping": {"carrier": "Correos", "price": "free", "tracking": null},
              "payment": {"method": "voucher", "code": "SPRING-25"},
              "giftMessage": "",
              "notes": "Customer changed their mind; refund 1.5e1 EUR handling credit"
            }
          ]
        }
        """#

    /// A fragment of a config payload with a deliberate mistake: the `price`
    /// value on line 4 is a bare word instead of a number.
    static let invalidSnippet = #"""
        {
          "sku": "TEA-SEN-100",
          "quantity": 2,
          "price": twelve.ninety,
          "tags": ["green", "japan"]
        }
        """#
}
