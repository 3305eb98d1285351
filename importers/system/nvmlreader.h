#pragma once

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace runlens::importers::system {

/// One GPU's readings; a value the driver does not report for this device stays empty.
struct GpuReading
{
    int index = 0;
    std::optional<double> utilisationPercent;
    std::optional<double> memoryUsedMiB, memoryTotalMiB;
    std::optional<double> powerWatts;
    std::optional<double> smClockMHz;
    std::optional<double> temperatureC;
    std::optional<double> pcieRxMiBPerSecond, pcieTxMiBPerSecond;
};

/// NVIDIA's management library, loaded when RunLens runs (`dlopen("libnvidia-ml.so.1")`): nothing is linked
/// at build time, and a machine without the driver simply has no GPU readings. The entry points and their
/// structures are the ones NVML documents as stable (the `_v2` names of the R3xx+ drivers).
class NvmlReader
{
public:
    NvmlReader();
    ~NvmlReader();
    NvmlReader(const NvmlReader&) = delete;
    NvmlReader& operator=(const NvmlReader&) = delete;

    /// The library was found and initialised.
    bool isAvailable() const { return m_api != nullptr; }
    /// Why there are no GPU readings, when there are none.
    QString unavailableReason() const { return m_reason; }
    int deviceCount() const;
    std::vector<GpuReading> read() const;

private:
    struct Api;
    std::unique_ptr<Api> m_api;
    QString m_reason;
};

} // namespace runlens::importers::system
