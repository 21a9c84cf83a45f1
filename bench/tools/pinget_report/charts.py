"""The report's SVG charts (matplotlib, Agg backend)."""
import os

from .parse import RESIDENCIES
from .stats import ns_err


def charts(rows, out_dir):
    """SVG charts; returns the file names written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(os.path.join(out_dir, "charts"), exist_ok=True)
    written = []
    single = [r for r in rows if r["residency"] == "block_cache" and r["batch"] == 1
              and "@" not in r["strategy"]]
    for suite in ("jmh", "native"):
        rs = [r for r in single if r["suite"] == suite and r["strategy"] != "jni_nop"
              and r["value_size"] > 0]
        if not rs:
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        for strategy in sorted({r["strategy"] for r in rs}):
            pts = sorted((r["value_size"], r["ops_per_s"], r["ops_per_s_error"] or 0)
                         for r in rs if r["strategy"] == strategy)
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                        yerr=[p[2] for p in pts], marker="o", capsize=3,
                        label=strategy)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("value size (bytes)")
        ax.set_ylabel("gets per second (log)")
        ax.set_title(f"{suite}: throughput, block cache, single gets")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        name = f"charts/throughput_{suite}.svg"
        fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
        plt.close(fig)
        written.append(name)

    # The three residencies side by side: one panel each, same axes.
    for suite in ("jmh", "native"):
        rs = [r for r in rows if r["suite"] == suite and r["batch"] == 1
              and "@" not in r["strategy"] and r["strategy"] != "jni_nop"
              and not r["strategy"].startswith("memcpy") and r["value_size"]]
        places = [p for p in RESIDENCIES if any(r["residency"] == p for r in rs)]
        if len(places) < 2:
            continue
        fig, axes = plt.subplots(1, len(places), figsize=(5 * len(places), 5),
                                 sharey=True, squeeze=False)
        for ax, place in zip(axes[0], places):
            here = [r for r in rs if r["residency"] == place]
            for strategy in sorted({r["strategy"] for r in here}):
                pts = sorted((r["value_size"], r["ns_per_op"],
                              ns_err(r)[1] or 0) for r in here if r["strategy"] == strategy)
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                            yerr=[p[2] for p in pts], marker="o", capsize=3, label=strategy)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("value size (bytes)")
            ax.set_title(place)
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].set_ylabel("ns per get (log)")
        axes[0][-1].legend(fontsize=7)
        fig.suptitle(f"{suite}: single gets by residency")
        name = f"charts/residency_{suite}.svg"
        fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
        plt.close(fig)
        written.append(name)

    for metric, label in (("copies_per_op", "value copies per get"),
                          ("alloc_bytes_per_op", "bytes allocated per get (JMH, -prof gc)")):
        rs = [r for r in single if r[metric] is not None and r["value_size"] > 0]
        if not rs:
            continue
        sizes = sorted({r["value_size"] for r in rs})
        names = sorted({(r["suite"], r["strategy"]) for r in rs})
        fig, ax = plt.subplots(figsize=(9, 5))
        width = 0.8 / max(1, len(sizes))
        for i, size in enumerate(sizes):
            vals = []
            for suite, strategy in names:
                r = next((r for r in rs if (r["suite"], r["strategy"], r["value_size"])
                          == (suite, strategy, size)), None)
                vals.append(r[metric] if r else 0)
            ax.bar([j + i * width for j in range(len(names))], vals, width,
                   label=f"{size} B")
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(names))])
        ax.set_xticklabels([f"{s}\n{t}" for s, t in names], rotation=45,
                           ha="right", fontsize=7)
        ax.set_ylabel(label)
        ax.set_title(f"{label}, block cache")
        ax.legend(fontsize=8)
        if metric == "alloc_bytes_per_op":
            ax.set_yscale("symlog", linthresh=16)
        name = f"charts/{metric}.svg"
        fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
        plt.close(fig)
        written.append(name)
    return written


def paired_chart(results, out_dir):
    """The paired ratios with their 99.9% intervals, one line per comparison
    and size (log scale): the chart of what the verdicts read."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rs = [r for r in results if r["low"] is not None]
    if not rs:
        return []
    os.makedirs(os.path.join(out_dir, "charts"), exist_ok=True)
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(rs) + 1.5))
    for i, r in enumerate(rs):
        ax.errorbar([r["ratio"]], [i], xerr=[[r["ratio"] - r["low"]], [r["high"] - r["ratio"]]],
                    fmt="o", capsize=3, color="C0")
    ax.axvline(1.0, color="grey", lw=0.8)
    ax.invert_yaxis()  # the report's order, top down
    ax.set_yticks(range(len(rs)))
    ax.set_yticklabels([r["label"] for r in rs], fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("a's speed over b's (b's time per operation / a's), 99.9% interval")
    ax.set_title("paired comparisons")
    ax.grid(True, which="both", axis="x", alpha=0.3)
    name = "charts/paired.svg"
    fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
    plt.close(fig)
    return [name]
