#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>
#include <vector>

namespace runlens::importers::system {

/// One Ascend NPU chip's readings from `npu-smi info`; a value the tool shows as NA stays empty.
struct NpuReading
{
    int index = 0; ///< the logical device (the Device column), else the NPU ID, else the order in the table
    int npuId = 0;
    int chip = 0;
    QString name; ///< "910B3", "310P3"...
    QString health; ///< "OK", "Warning"...
    std::optional<double> aicorePercent;
    std::optional<double> memoryUsedMiB, memoryTotalMiB; ///< HBM when the chip has it, else its DDR
    std::optional<double> powerWatts;
    std::optional<double> temperatureC;
};

/// Parses the device table of `npu-smi info` (Huawei's Ascend management tool): a header of two lines
/// (`NPU Name | Health | Power(W) Temp(C) ...` over `Chip [Device] | Bus-Id | AICore(%) Memory-Usage(MB)
/// [HBM-Usage(MB)]`), then two lines per chip under the same columns, matched by column name so the 910, 910B
/// and 310P layouts all read. The process table below it is ignored. Unknown or garbled text gives no readings.
std::vector<NpuReading> parseNpuSmiInfo(QByteArrayView text);

/// Runs `npu-smi info` when the tool is on PATH and parses what it prints. Construction looks the tool up once.
class NpuSmiReader
{
public:
    NpuSmiReader();

    bool isAvailable() const { return !m_program.isEmpty(); }
    /// Why there are no NPU readings, when there are none.
    QString unavailableReason() const { return m_reason; }
    /// Runs the tool (a few seconds at most); empty when it fails, and unavailableReason() then says why.
    std::vector<NpuReading> read();

private:
    QString m_program;
    QString m_reason;
};

} // namespace runlens::importers::system
