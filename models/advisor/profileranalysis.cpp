#include "advisor/analysis.h"

namespace runlens::advisor {

void analyseProfiler(const AdvisorInput& input, AnalysisContext& context) { }

} // namespace runlens::advisor
