#include "advisor/analysis.h"

namespace runlens::advisor {

void analyseScalars(const AdvisorInput& input, AnalysisContext& context) { }

} // namespace runlens::advisor
