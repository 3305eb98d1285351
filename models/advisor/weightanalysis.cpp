#include "advisor/analysis.h"

namespace runlens::advisor {

void analyseWeights(const AdvisorInput& input, AnalysisContext& context) { }

} // namespace runlens::advisor
