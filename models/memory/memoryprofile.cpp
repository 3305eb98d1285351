#include "models/memory/memoryprofile.h"

#include <QCoreApplication>

namespace runlens::models::memory {

const char* memoryCategoryId(MemoryCategory category)
{
    switch (category) {
    case MemoryCategory::Parameter:
        return "parameter";
    case MemoryCategory::OptimizerState:
        return "optimizer_state";
    case MemoryCategory::Input:
        return "input";
    case MemoryCategory::Temporary:
        return "temporary";
    case MemoryCategory::Activation:
        return "activation";
    case MemoryCategory::Gradient:
        return "gradient";
    case MemoryCategory::AutogradDetail:
        return "autograd_detail";
    case MemoryCategory::Unknown:
        break;
    }
    return "unknown";
}

QString memoryCategoryName(MemoryCategory category)
{
    switch (category) {
    case MemoryCategory::Parameter:
        return QCoreApplication::translate("runlens::memory", "Parameter");
    case MemoryCategory::OptimizerState:
        return QCoreApplication::translate("runlens::memory", "Optimizer state");
    case MemoryCategory::Input:
        return QCoreApplication::translate("runlens::memory", "Input");
    case MemoryCategory::Temporary:
        return QCoreApplication::translate("runlens::memory", "Temporary");
    case MemoryCategory::Activation:
        return QCoreApplication::translate("runlens::memory", "Activation");
    case MemoryCategory::Gradient:
        return QCoreApplication::translate("runlens::memory", "Gradient");
    case MemoryCategory::AutogradDetail:
        return QCoreApplication::translate("runlens::memory", "Autograd detail");
    case MemoryCategory::Unknown:
        break;
    }
    return QCoreApplication::translate("runlens::memory", "Unknown");
}

} // namespace runlens::models::memory
