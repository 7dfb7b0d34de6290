// Common string format traits of alloy (namespace alloy.common), written for
// Anvil from the public alloy documentation.
$version: "2.0"

namespace alloy.common

/// Email address.
@trait(selector: ":test(string, member > string)")
structure emailFormat {}

/// ISO 3166-1 alpha-2 country code.
@trait(selector: ":test(string, member > string)")
structure countryCodeFormat {}

/// ISO 639 language code.
@trait(selector: ":test(string, member > string)")
structure languageCodeFormat {}

/// BCP 47 language tag.
@trait(selector: ":test(string, member > string)")
structure languageTagFormat {}

/// Hexadecimal color code (`#RRGGBB`).
@trait(selector: ":test(string, member > string)")
structure hexColorCodeFormat {}

/// IPv4 or IPv6 address.
@trait(selector: ":test(string, member > string)")
structure ipaddressFormat {}

/// IPv4 or IPv6 CIDR block.
@trait(selector: ":test(string, member > string)")
structure cidrFormat {}
