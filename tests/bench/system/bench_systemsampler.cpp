// What sampling the machine costs: the CPU time of one SystemSampler sample (process tree included), and the
// CPU time of a whole `runlens record --interval 1s` beside a sleeping command, as a share of one core. The
// goal is at most 1 % of one core at a 1 s interval. No peer: the budget is the reference.

#include "importers/system/systemsampler.h"

#include "tests/bench/benchcommon.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

double processCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double wallSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// CPU seconds (user + system) of `runlens record --interval 1s -- sleep S`, the sleeping child included.
double recorderCpuSeconds(int seconds, double* wall)
{
    QTemporaryDir dir;
    const QByteArray out = QFile::encodeName(dir.path());
    const QByteArray sleepFor = QByteArray::number(seconds);
    const double start = wallSeconds();
    const pid_t child = fork();
    if (child == 0) {
        const char* argv[]
            = { RUNLENS_EXECUTABLE,   "record", "--interval", "1s", "--out", out.constData(), "--", "sleep",
                sleepFor.constData(), nullptr };
        execv(argv[0], const_cast<char* const*>(argv));
        _exit(127);
    }
    int status = 0;
    rusage usage {};
    wait4(child, &status, 0, &usage);
    *wall = wallSeconds() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return double(usage.ru_utime.tv_sec) + double(usage.ru_utime.tv_usec) * 1e-6 + double(usage.ru_stime.tv_sec)
        + double(usage.ru_stime.tv_usec) * 1e-6;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int seconds = 20;
    int samples = 100;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--seconds") == 0)
            seconds = std::max(2, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--samples") == 0)
            samples = std::max(10, std::atoi(argv[i + 1]));
    }

    // In process: the sampler alone, measuring this process's tree, samples back to back, median of 5 runs.
    runlens::importers::system::SystemSampler sampler;
    sampler.setProcess(getpid());
    sampler.sample(wallSeconds());
    std::vector<double> perSampleMs;
    std::size_t metrics = 0;
    for (int run = 0; run < 5; ++run) {
        const double cpu = processCpuSeconds();
        for (int i = 0; i < samples; ++i)
            metrics = sampler.sample(wallSeconds()).size();
        perSampleMs.push_back((processCpuSeconds() - cpu) * 1000.0 / samples);
    }
    const double sampleMs = runlens::bench::median(perSampleMs);
    std::printf("one sample: %.3f ms CPU (median of 5 runs of %d samples, %zu metrics, %d processes on the machine)\n",
                sampleMs, samples, metrics, int(QDir(QStringLiteral("/proc")).entryList(QDir::Dirs).size()));

    // The whole recorder: start-up, sampling once a second, writing and flushing the event file.
    double wall = 0;
    const double cpu = recorderCpuSeconds(seconds, &wall);
    if (cpu < 0) {
        std::printf("RESULT system sampler: `runlens record` failed\n");
        return 1;
    }
    std::printf("runlens record --interval 1s -- sleep %d: %.3f s CPU over %.2f s\n", seconds, cpu, wall);
    const double samplerShare = sampleMs / 1000.0 * 100.0;
    const double recorderShare = cpu / wall * 100.0;
    std::printf("RESULT system sampler: %.3f %% of one core at 1 s (one sample %.3f ms CPU, median of 5) | whole "
                "recorder %.3f %% of one core over %d s, start-up included | goal <= 1 %%: %s\n",
                samplerShare, sampleMs, recorderShare, seconds,
                samplerShare <= 1.0 && recorderShare <= 1.0 ? "met" : "missed");
    return 0;
}
