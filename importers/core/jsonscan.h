#pragma once

#include "importers/core/importbudget.h"

#include <cstdint>
#include <string_view>

namespace runlens::importers {

/// Checks JSON text against an ImportBudget before a DOM is built from it: the nesting of arrays and
/// objects against the depth limit, and the number of values against the element limit (spent on the
/// budget). A DOM of deeply nested arrays costs tens of bytes per input byte and recursive code that walks
/// or copies it overflows the stack, so the check comes first. Linear, allocates nothing and does not
/// validate the text (the parser that follows does). Returns the offset at which a limit was passed, or
/// -1 when the text is within them; ImportBudget::diagnostic() then says which.
std::int64_t scanJsonLimits(std::string_view text, ImportBudget& budget);

} // namespace runlens::importers
