#include "advisor/analysis.h"

namespace runlens::advisor {

void analyseTraces(const AdvisorInput& input, AnalysisContext& context) { }

} // namespace runlens::advisor
