#include "advisor/rule.h"

namespace runlens::advisor {

double Rule::parameter(const QString& name, double fallback) const
{
    const QVariant value = params.value(name);
    bool ok = false;
    const double number = value.toDouble(&ok);
    return ok ? number : fallback;
}

const Rule* RuleBook::rule(const QString& id) const
{
    for (const Rule& candidate : m_rules) {
        if (candidate.id == id)
            return &candidate;
    }
    return nullptr;
}

Rule* RuleBook::rule(const QString& id)
{
    for (Rule& candidate : m_rules) {
        if (candidate.id == id)
            return &candidate;
    }
    return nullptr;
}

} // namespace runlens::advisor
