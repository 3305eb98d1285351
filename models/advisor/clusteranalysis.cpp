#include "advisor/analysis.h"

namespace runlens::advisor {

void analyseCluster(const AdvisorInput& input, AnalysisContext& context) { }

} // namespace runlens::advisor
