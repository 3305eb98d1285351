#include "importers/core/jsonscan.h"

namespace runlens::importers {

std::int64_t scanJsonLimits(std::string_view text, ImportBudget& budget)
{
    // Values are spent in batches: one call per value would cost more than the scan itself.
    constexpr std::int64_t kBatch = 4096;
    std::int64_t pending = 1; // the top-level value
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '[':
        case '{':
            if (!budget.enterDepth(++depth))
                return std::int64_t(i);
            break;
        case ']':
        case '}':
            if (depth > 0)
                --depth;
            break;
        case ',':
        case ':':
            // Each separator starts one more value (a key counts as one: the DOM stores it).
            if (++pending >= kBatch) {
                if (!budget.spendElements(pending))
                    return std::int64_t(i);
                pending = 0;
            }
            break;
        default:
            break;
        }
    }
    if (!budget.spendElements(pending))
        return std::int64_t(text.size());
    return -1;
}

} // namespace runlens::importers
