#include "importers/system/nvmlreader.h"

#include <QCoreApplication>

#include <dlfcn.h>

namespace runlens::importers::system {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::importers::system::NvmlReader)
};

// The types NVML's header declares, with the layouts its documentation gives.
using NvmlReturn = int; // NVML_SUCCESS is 0
using NvmlDevice = void*;
struct NvmlUtilization
{
    unsigned int gpu; ///< percent of time a kernel ran over the last sample period
    unsigned int memory;
};
struct NvmlMemory
{
    unsigned long long total, free, used; ///< bytes
};
constexpr int kClockSm = 1; // NVML_CLOCK_SM
constexpr int kTemperatureGpu = 0; // NVML_TEMPERATURE_GPU
constexpr int kPcieTxBytes = 0; // NVML_PCIE_UTIL_TX_BYTES, KB/s
constexpr int kPcieRxBytes = 1; // NVML_PCIE_UTIL_RX_BYTES, KB/s

} // namespace

struct NvmlReader::Api
{
    void* library = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*count)(unsigned int*) = nullptr;
    NvmlReturn (*handle)(unsigned int, NvmlDevice*) = nullptr;
    NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*memory)(NvmlDevice, NvmlMemory*) = nullptr;
    NvmlReturn (*power)(NvmlDevice, unsigned int*) = nullptr; ///< milliwatts
    NvmlReturn (*clock)(NvmlDevice, int, unsigned int*) = nullptr; ///< MHz
    NvmlReturn (*temperature)(NvmlDevice, int, unsigned int*) = nullptr; ///< degrees C
    NvmlReturn (*pcie)(NvmlDevice, int, unsigned int*) = nullptr; ///< KB/s

    ~Api()
    {
        if (shutdown)
            shutdown();
        if (library)
            dlclose(library);
    }
};

NvmlReader::NvmlReader()
{
    auto api = std::make_unique<Api>();
    api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        m_reason = Text::tr("NVIDIA's management library (libnvidia-ml.so.1) is not installed: no GPU metrics.");
        return;
    }
    const auto resolve = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(api->library, name));
        return fn != nullptr;
    };
    const bool complete = resolve(api->init, "nvmlInit_v2") && resolve(api->shutdown, "nvmlShutdown")
        && resolve(api->count, "nvmlDeviceGetCount_v2") && resolve(api->handle, "nvmlDeviceGetHandleByIndex_v2");
    if (!complete) {
        api->shutdown = nullptr;
        m_reason = Text::tr("libnvidia-ml.so.1 lacks the functions RunLens reads: no GPU metrics.");
        return;
    }
    // Optional readings: older drivers or some boards lack a few of them.
    resolve(api->utilization, "nvmlDeviceGetUtilizationRates");
    resolve(api->memory, "nvmlDeviceGetMemoryInfo");
    resolve(api->power, "nvmlDeviceGetPowerUsage");
    resolve(api->clock, "nvmlDeviceGetClockInfo");
    resolve(api->temperature, "nvmlDeviceGetTemperature");
    resolve(api->pcie, "nvmlDeviceGetPcieThroughput");
    if (const NvmlReturn status = api->init(); status != 0) {
        api->shutdown = nullptr;
        m_reason = Text::tr("NVIDIA's management library could not start (error %1): no GPU metrics.").arg(status);
        return;
    }
    m_api = std::move(api);
}

NvmlReader::~NvmlReader() = default;

int NvmlReader::deviceCount() const
{
    unsigned int count = 0;
    if (!m_api || m_api->count(&count) != 0)
        return 0;
    return int(count);
}

std::vector<GpuReading> NvmlReader::read() const
{
    std::vector<GpuReading> out;
    const int count = deviceCount();
    for (int i = 0; i < count; ++i) {
        NvmlDevice device = nullptr;
        if (m_api->handle(unsigned(i), &device) != 0)
            continue;
        GpuReading r;
        r.index = i;
        constexpr double kMiB = 1024.0 * 1024.0;
        if (NvmlUtilization u {}; m_api->utilization && m_api->utilization(device, &u) == 0)
            r.utilisationPercent = u.gpu;
        if (NvmlMemory m {}; m_api->memory && m_api->memory(device, &m) == 0) {
            r.memoryUsedMiB = double(m.used) / kMiB;
            r.memoryTotalMiB = double(m.total) / kMiB;
        }
        unsigned int value = 0;
        if (m_api->power && m_api->power(device, &value) == 0)
            r.powerWatts = value / 1000.0;
        if (m_api->clock && m_api->clock(device, kClockSm, &value) == 0)
            r.smClockMHz = value;
        if (m_api->temperature && m_api->temperature(device, kTemperatureGpu, &value) == 0)
            r.temperatureC = value;
        if (m_api->pcie && m_api->pcie(device, kPcieRxBytes, &value) == 0)
            r.pcieRxMiBPerSecond = value / 1024.0;
        if (m_api->pcie && m_api->pcie(device, kPcieTxBytes, &value) == 0)
            r.pcieTxMiBPerSecond = value / 1024.0;
        out.push_back(r);
    }
    return out;
}

} // namespace runlens::importers::system
