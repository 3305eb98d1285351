#include "advisor/analysis.h"

namespace runlens::advisor {

void analyseMemory(const AdvisorInput& input, AnalysisContext& context) { }

} // namespace runlens::advisor
