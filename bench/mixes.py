"""Log mixes for bench/gen: one function per stack, each shaped from that stack's real output.

Every line format below is the one the upstream code prints (NCCL's INFO/WARN macros, DeepSpeed's
log_dist and timer, the Hugging Face Trainer's ProgressCallback, Lightning's RichProgressBar and
rank_zero_warn, srun --label, py-spy dump, PyTorch's ProcessGroupNCCL watchdog and flight
recorder, torchrun's elastic agent). What is compressed is time: a real run prints its NCCL
communicator set-up in bursts, a bench log interleaves it with the steps so that every slice of
the file has the mix's shape.

Each writer takes (sink, size, seed) and adds lines until about `size` bytes, then the failure
that ends the run. Output depends only on the arguments.
"""
import os
import random

TABLE = 1024  # precomputed values, indexed by step & (TABLE - 1)
MASK = TABLE - 1


def _ts(sec, sep=","):
    """2024-05-01 10:00:00,123: Python logging's asctime, the run starting at 10:00."""
    sec = int(sec)
    return "2024-05-01 %02d:%02d:%02d%s%03d" % (10 + sec // 3600 % 14, sec // 60 % 60, sec % 60, sep,
                                               (sec * 37) % 1000)


def _glog(sec, us):
    """0501 10:00:00.123456: glog's month-day and time, as c10 and torchrun print it."""
    sec = int(sec)
    return "0501 %02d:%02d:%02d.%06d" % (10 + sec // 3600 % 14, sec // 60 % 60, sec % 60, us)


def _fill(sink, size, tail_len, step_fn):
    """Calls step_fn(step) and adds what it returns until the body leaves room for the tail."""
    end = size - tail_len
    step = 0
    while sink.size < end:
        parts = []
        for _ in range(16):
            step += 1
            parts.append(step_fn(step))
        sink.add("".join(parts))
    return step


class Cluster:
    """Hosts, pids, thread ids, bus ids and communicator addresses of a job."""

    BUSID = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]

    def __init__(self, ranks, per_node, seed, host_fmt="node-%d"):
        rng = random.Random(seed)
        self.ranks = ranks
        self.per_node = per_node
        self.host_fmt = host_fmt
        base = rng.randrange(10000, 60000)
        self.pid = [base + r % per_node + 31 * (r // per_node) for r in range(ranks)]
        self.tid = [p + rng.randrange(40, 90) for p in self.pid]
        self.rng = rng

    def host(self, r):
        return self.host_fmt % (r // self.per_node)

    def local(self, r):
        return r % self.per_node

    def nccl(self, r, tid=None):
        """NCCL's debug prefix: host:pid:tid [cudaDev]."""
        return "%s:%d:%d [%d] " % (self.host(r), self.pid[r], tid or self.tid[r], self.local(r))

    def init_lines(self, r, comm, commid, nranks, version=True):
        """What NCCL_DEBUG=INFO prints while rank r sets up a communicator (NCCL 2.20/2.21)."""
        h = self.nccl(r) + "NCCL INFO "
        loc = self.local(r)
        out = []
        if version and r == 0:
            out += [h + "Bootstrap : Using eth0:10.1.0.1<0>\n",
                    h + "NET/Plugin: No plugin found (libnccl-net.so)\n",
                    h + "cudaDriverVersion 12040\n",
                    h + "NCCL version 2.20.5+cuda12.4\n"]
        out += [h + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; "
                    "OOB eth0:10.1.%d.%d<0>\n" % (r // self.per_node // 250, r // self.per_node % 250 + 1),
                h + "Using non-device net plugin version 0\n",
                h + "Using network IB\n",
                h + "comm 0x%x rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId 0x%x - Init START\n"
                % (comm, r, nranks, loc, loc, self.BUSID[loc % 8], commid),
                h + "Setting affinity for GPU %d to ffff,ffffffff,00000000,0000ffff,ffffffff\n" % loc]
        for ch in range(0, 4):
            out.append(h + "Channel %02d/04 :    0   1   2   3   4   5   6   7\n" % ch)
        nxt, prv = (r + 1) % nranks, (r - 1) % nranks
        out.append(h + "Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d\n" % (nxt, r, prv, nxt, r, prv))
        out.append(h + "P2P Chunksize set to 131072\n")
        for ch in range(0, 4):
            out.append(h + "Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA\n"
                       % (ch, r, loc, nxt, self.local(nxt), ch))
        out += [h + "Connected all rings\n",
                h + "Connected all trees\n",
                h + "threadThresholds 8/8/64 | 128/8/64 | 512 | 512\n",
                h + "4 coll channels, 4 collnet channels, 0 nvls channels, 4 p2p channels, 2 p2p channels per peer\n",
                h + "comm 0x%x rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId 0x%x - Init COMPLETE\n"
                % (comm, r, nranks, loc, loc, self.BUSID[loc % 8], commid)]
        return out


def _warning(path, line, kind, msg, code):
    return "%s:%d: %s: %s\n  %s\n" % (path, line, kind, msg, code)


def _failures_summary(cluster, failed, root, script, when):
    """torchrun's ChildFailedError summary."""
    out = ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n",
           "============================================================\n",
           "%s FAILED\n" % script,
           "------------------------------------------------------------\n",
           "Failures:\n"]
    for k, r in enumerate(failed[:8]):
        out.append("[%d]:\n  time      : 2024-05-01_%s\n  host      : %s\n  rank      : %d (local_rank: %d)\n"
                   "  exitcode  : -6 (pid: %d)\n  error_file: <N/A>\n"
                   "  traceback : Signal 6 (SIGABRT) received by PID %d\n"
                   % (k + 1, when, cluster.host(r), r, cluster.local(r), cluster.pid[r], cluster.pid[r]))
    out.append("------------------------------------------------------------\n"
               "Root Cause (first observed failure):\n"
               "[0]:\n  time      : 2024-05-01_%s\n  host      : %s\n  rank      : %d (local_rank: %d)\n"
               "  exitcode  : 1 (pid: %d)\n  error_file: <N/A>\n"
               "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
               "============================================================\n"
               % (when, cluster.host(root), root, cluster.local(root), cluster.pid[root]))
    return out


def _watchdog(prefix, r, seq, us, pg="[PG ID 0 PG GUID 0(default_pg) Rank %d]"):
    """A c10d watchdog timeout and the flight recorder's dump, as PyTorch 2.4-2.6 print them."""
    pgr = pg % r
    work = ("WorkNCCL(SeqNum=%d, OpType=ALLREDUCE, NumelIn=262144, NumelOut=262144, Timeout(ms)=600000)" % seq)
    return [
        prefix + "[E%s ProcessGroupNCCL.cpp:632] %s Watchdog caught collective operation timeout: %s ran for "
        "600035 milliseconds before timing out.\n" % (_glog(7803, us), pgr, work),
        prefix + "[E%s ProcessGroupNCCL.cpp:2168] %s failure detected by watchdog at work sequence id: %d PG "
        "status: last enqueued work: %d, last completed work: %d\n" % (_glog(7803, us + 90), pgr, seq, seq, seq - 1),
        prefix + "[E%s ProcessGroupNCCL.cpp:1700] %s ProcessGroupNCCL preparing to dump debug info. Include "
        "stack trace: 1, only active collectives: 0\n" % (_glog(7803, us + 180), pgr),
        prefix + "[E%s ProcessGroupNCCL.cpp:1922] %s Observed flight recorder dump signal from another rank via "
        "TCPStore.\n" % (_glog(7803, us + 260), pgr),
        prefix + "[E%s ProcessGroupNCCL.cpp:1442] %s Exception thrown when waiting for future Flight recorder dump "
        "in heartbeatMonitor: std::future_error: Broken promise\n" % (_glog(7804, us), pgr),
        prefix + "[F%s ProcessGroupNCCL.cpp:1557] %s %s Terminating the process after attempting to dump debug "
        "info, due to collective timeout or exception.\n" % (_glog(7807, us), pgr, pgr),
    ]


# --------------------------------------------------------------------------------- deepspeed-nccl-info

def deepspeed_nccl_info(sink, size, seed):
    """Megatron-DeepSpeed on 2 nodes x 8 GPUs through DeepSpeed's pdsh runner, NCCL_DEBUG=INFO.

    Every line carries pdsh's `worker-N: ` host; NCCL lines then carry `host:pid:tid [dev]`.
    Per step: DeepSpeed's `[Rank 0] step=..., skipped=...` and timer lines, the Megatron
    iteration line of the last stage, `[Rank N]` loss lines from the ranks' own logging, one
    rank's communicator set-up (pipeline send/recv communicators are created lazily, per peer),
    and UserWarning pairs."""
    ranks, per = 16, 8
    c = Cluster(ranks, per, seed, "worker-%d")
    rng = random.Random(seed + 7)
    lr = ["%.16e" % (1.5e-4 * (0.5 + 0.5 * rng.random())) for _ in range(TABLE)]
    samples = ["%.13f" % (24 + 2 * rng.random()) for _ in range(TABLE)]
    loss = ["%.6E" % (2.1 + 0.6 * rng.random()) for _ in range(TABLE)]
    short_loss = ["%.4f" % (2.1 + 0.6 * rng.random()) for _ in range(TABLE)]
    ms = ["%.1f" % (14000 + 900 * rng.random()) for _ in range(TABLE)]
    comms = [rng.randrange(1 << 40, 1 << 44) for _ in range(TABLE)]
    iters = 317892
    pd = lambda r: "worker-%d: " % (r // per)
    out = ["[%s] [INFO] [runner.py:568:main] cmd = pdsh -S -f 1024 -w worker-0,worker-1 export NCCL_DEBUG=INFO; "
           "export PYTHONPATH=/workspace/Megatron-DeepSpeed;  cd /workspace/Megatron-DeepSpeed; /usr/bin/python -u "
           "-m deepspeed.launcher.launch --world_info=eyJ3b3JrZXItMCI6IFswLCAxLCAyLCAzLCA0LCA1LCA2LCA3XX0= "
           "--node_rank=%%n --master_addr=10.1.0.1 --master_port=29500 pretrain_gpt.py --deepspeed "
           "--deepspeed_config ds_config.json --pipeline-model-parallel-size 2\n" % _ts(0)]
    for n in range(2):
        out.append("worker-%d: [%s] [INFO] [launch.py:146:main] WORLD INFO DICT: {'worker-0': [0, 1, 2, 3, 4, 5, "
                   "6, 7], 'worker-1': [0, 1, 2, 3, 4, 5, 6, 7]}\n" % (n, _ts(2)))
        out.append("worker-%d: [%s] [INFO] [launch.py:152:main] nnodes=2, num_local_procs=8, node_rank=%d\n"
                   % (n, _ts(2), n))
        out.append("worker-%d: [%s] [INFO] [launch.py:163:main] dist_world_size=16\n" % (n, _ts(2)))
    for r in range(ranks):
        out.append(pd(r) + "[%s] [INFO] [comm.py:637:init_distributed] cdb=None\n" % _ts(5))
    out.append(pd(0) + "[%s] [INFO] [comm.py:668:init_distributed] Initializing TorchBackend in DeepSpeed with "
               "backend nccl\n" % _ts(5))
    for r in range(ranks):
        out += [pd(r) + l for l in c.init_lines(r, comms[r], 0x5a3c9e1f07b2d46, ranks)]
    sink.add("".join(out))

    fail = 9
    tail = [pd(fail) + c.nccl(fail, c.tid[fail] + 3) + "transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion "
            "from peer 10.1.0.1<53422> with error 12, opcode 0, len 0, vendor err 129 (Recv)\n",
            pd(fail) + c.nccl(fail, c.tid[fail] + 3) + "NCCL INFO transport/net.cc:1134 -> 6\n",
            pd(fail) + c.nccl(fail, c.tid[fail] + 3) + "NCCL INFO proxy.cc:679 -> 6\n",
            pd(fail) + c.nccl(fail, c.tid[fail] + 3) + "NCCL INFO proxy.cc:858 -> 6 [Proxy Thread]\n"]
    for r in range(ranks):
        if r != fail:
            tail += [pd(r) + l for l in _watchdog("", r, 48211, 120000 + r)[:2]]
    for n in range(2):
        tail.append("worker-%d: [%s] [INFO] [launch.py:319:sigkill_handler] Killing subprocess %d\n"
                    % (n, _ts(7810), c.pid[n * per]))
    tail.append("worker-1: [%s] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python', '-u', 'pretrain_gpt.py', "
                "'--local_rank=1', '--deepspeed', '--deepspeed_config', 'ds_config.json'] exits with return code = -6\n"
                % _ts(7811))
    tail.append("pdsh@worker-0: worker-1: ssh exited with exit code 250\n")
    tail = "".join(tail)

    warn = [
        _warning("/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py", 91, "UserWarning",
                 "None of the inputs have requires_grad=True. Gradients will be None", "warnings.warn("),
        _warning("/workspace/Megatron-DeepSpeed/megatron/core/tensor_parallel/layers.py", 609, "UserWarning",
                 "async_grad_allreduce is deprecated, not in use anymore and will be fully removed with 0.10.0. "
                 "Please use allreduce_dgrad instead.", "warnings.warn("),
    ]

    def step(s):
        i = s & MASK
        sec = 60 + s * 14
        o = [pd(0), "[%s] [INFO] [logging.py:96:log_dist] [Rank 0] step=%d, skipped=0, lr=[%s, %s], "
             "mom=[(0.9, 0.95), (0.9, 0.95)]\n" % (_ts(sec), s, lr[i], lr[i]),
             pd(0), "[%s] [INFO] [timer.py:260:stop] epoch=0/micro_step=%d/global_step=%d, "
             "RunningAvgSamplesPerSec=%s, CurrSamplesPerSec=%s, MemAllocated=4.32GB, MaxMemAllocated=38.49GB\n"
             % (_ts(sec), 4 * s, s, samples[i], samples[(i + 5) & MASK]),
             pd(ranks - 1), " iteration %8d/%8d | consumed samples: %12d | consumed tokens: %12d | elapsed time per "
             "iteration (ms): %s | learning rate: %.3E | global batch size:   768 | lm loss: %s | loss scale: 1.0 | "
             "actual seqlen:  4096 | number of skipped iterations:   0 | number of nan iterations:   0 | samples "
             "per second: 53.753 | tokens per gpu per second (tgs): 13760.8 | TFLOPs: 160.12 |\n"
             % (s, iters, 768 * s, 768 * 4096 * s, ms[i], float(lr[i]), loss[i])]
        for k in range(4):
            r = (4 * s + k) % ranks
            o += [pd(r), "%s | INFO     | __main__:log_dist:54 - [Rank %d] Loss: %s\n"
                  % (_ts(sec, "."), r, short_loss[(i + r) & MASK])]
        r = s % ranks
        h = pd(r) + c.nccl(r) + "NCCL INFO "
        peer = (r + per) % ranks
        o += [h, "comm 0x%x rank %d nranks 2 cudaDev %d nvmlDev %d busId %s commId 0x%x - Init START\n"
              % (comms[i], r >= per, c.local(r), c.local(r), c.BUSID[c.local(r)], comms[(i + 1) & MASK]),
              h, "Channel 00/02 :    0   1\n", h, "Channel 01/02 :    0   1\n",
              h, "Channel 00/0 : %d[%d] -> %d[%d] [send] via NET/IB/0/GDRDMA\n" % (r, c.local(r), peer, c.local(peer)),
              h, "Connected all rings\n",
              h, "comm 0x%x rank %d nranks 2 cudaDev %d nvmlDev %d busId %s commId 0x%x - Init COMPLETE\n"
              % (comms[i], r >= per, c.local(r), c.local(r), c.BUSID[c.local(r)], comms[(i + 1) & MASK])]
        if s % 3 == 0:
            o += [pd(r) + l + "\n" for l in warn[s % 2].rstrip("\n").split("\n")]
        return "".join(o)

    _fill(sink, size, len(tail) + 4096, step)
    sink.add(tail)


# --------------------------------------------------------------------------------- hf-trainer

def hf_trainer(sink, size, seed):
    """`accelerate launch` of the Hugging Face Trainer on 8 GPUs, stdout and stderr in one file.

    The Trainer's tqdm bar is written with carriage returns and no newline until something else
    prints, so with the default logging_steps=500 each bar line holds 500 updates (about 40 KB);
    between them the loss dicts the ProgressCallback prints, eval bars and dicts, and checkpoint
    saves with a FutureWarning from every process."""
    rng = random.Random(seed + 11)
    total = 60000
    loss = ["%.4f" % (1.4 + 0.8 * rng.random()) for _ in range(TABLE)]
    gnorm = ["%.16f" % (0.3 + 0.6 * rng.random()) for _ in range(TABLE)]
    lr = [repr(5e-5 * (0.2 + 0.8 * rng.random())) for _ in range(TABLE)]
    its = ["%.2f" % (1.8 + 0.3 * rng.random()) for _ in range(TABLE)]

    def bar(n, tot, sec, rate):
        pct = 100 * n // tot
        frac = 10.0 * n / tot
        full = int(frac)
        part = " \u258f\u258e\u258d\u258c\u258b\u258a\u2589"[int((frac - full) * 8)]
        b = "\u2588" * full + (part if full < 10 else "") + " " * max(0, 9 - full)
        left = int((tot - n) / float(rate))
        return "\r%3d%%|%s| %d/%d [%02d:%02d:%02d<%02d:%02d:%02d, %sit/s]" % (
            pct, b[:10], n, tot, sec // 3600, sec // 60 % 60, sec % 60, left // 3600, left // 60 % 60, left % 60, rate)

    out = ["The following values were not passed to `accelerate launch` and had defaults used instead:\n",
           "\t`--num_machines` was set to a value of `1`\n",
           "\t`--mixed_precision` was set to a value of `'no'`\n",
           "\t`--dynamo_backend` was set to a value of `'no'`\n",
           "To avoid this warning pass in values for each of the problematic parameters or run `accelerate config`.\n"]
    for r in range(8):
        out.append("[INFO|training_args.py:2117] %s >> PyTorch: setting up devices\n" % _ts(3))
        out.append("/usr/local/lib/python3.10/dist-packages/transformers/training_args.py:1545: FutureWarning: "
                   "`evaluation_strategy` is deprecated and will be removed in version 4.46 of \U0001f917 "
                   "Transformers. Use `eval_strategy` instead\n  warnings.warn(\n")
    out += ["[INFO|trainer.py:2128] %s >> ***** Running training *****\n" % _ts(20),
            "[INFO|trainer.py:2129] %s >>   Num examples = 3,840,000\n" % _ts(20),
            "[INFO|trainer.py:2130] %s >>   Num Epochs = 1\n" % _ts(20),
            "[INFO|trainer.py:2131] %s >>   Instantaneous batch size per device = 8\n" % _ts(20),
            "[INFO|trainer.py:2134] %s >>   Total train batch size (w. parallel, distributed & accumulation) = 64\n" % _ts(20),
            "[INFO|trainer.py:2135] %s >>   Gradient Accumulation steps = 1\n" % _ts(20),
            "[INFO|trainer.py:2136] %s >>   Total optimization steps = %s\n" % (_ts(20), format(total, ",")),
            "[INFO|trainer.py:2137] %s >>   Number of trainable parameters = 1,235,814,400\n" % _ts(20),
            "  0%%|          | 0/%d [00:00<?, ?it/s]" % total]
    sink.add("".join(out))

    tail = []
    tail.append("Traceback (most recent call last):\n"
                '  File "/workspace/run_clm.py", line 655, in <module>\n    main()\n'
                '  File "/workspace/run_clm.py", line 603, in main\n'
                "    train_result = trainer.train(resume_from_checkpoint=checkpoint)\n"
                '  File "/usr/local/lib/python3.10/dist-packages/transformers/trainer.py", line 1938, in train\n'
                "    return inner_training_loop(\n"
                '  File "/usr/local/lib/python3.10/dist-packages/transformers/trainer.py", line 2279, in _inner_training_loop\n'
                "    tr_loss_step = self.training_step(model, inputs)\n"
                '  File "/usr/local/lib/python3.10/dist-packages/transformers/trainer.py", line 3349, in training_step\n'
                "    self.accelerator.backward(loss, **kwargs)\n"
                '  File "/usr/local/lib/python3.10/dist-packages/accelerate/accelerator.py", line 2159, in backward\n'
                "    loss.backward(**kwargs)\n"
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 5 has a total capacity of "
                "79.15 GiB of which 1.12 GiB is free. Process 51234 has 78.02 GiB memory in use. Of the allocated memory "
                "73.40 GiB is allocated by PyTorch, and 3.11 GiB is reserved by PyTorch but unallocated. If reserved but "
                "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
                "fragmentation.  See documentation for Memory Management  "
                "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n")
    c = Cluster(8, 8, seed, "gpu-node-%d")
    tail.append("W0501 12:10:04.200000 139870000000000 torch/distributed/elastic/multiprocessing/api.py:858] Sending "
                "process %d closing signal SIGTERM\n" % c.pid[0])
    tail.append("E0501 12:10:05.001234 139870000000000 torch/distributed/elastic/multiprocessing/api.py:833] failed "
                "(exitcode: 1) local_rank: 5 (pid: %d) of binary: /usr/bin/python\n" % c.pid[5])
    tail += _failures_summary(c, [0, 1, 2, 3, 4, 6, 7], 5, "run_clm.py", "12:10:05")
    tail = "".join(tail)

    log_every, eval_every, save_every = 500, 5000, 10000

    def block(k):
        """logging_steps updates of the bar, then the loss dict (and eval, save)."""
        s0 = (k - 1) * log_every
        o = []
        for n in range(s0 + 1, s0 + log_every + 1):
            o.append(bar(n % total or total, total, int(n / 1.9), its[n & MASK]))
        s = s0 + log_every
        i = k & MASK
        o.append("{'loss': %s, 'grad_norm': %s, 'learning_rate': %s, 'epoch': %.2f}\n"
                 % (loss[i], gnorm[i], lr[i], float(s % total) / total))
        if s % eval_every == 0:
            o.append("\n")
            ev = 250
            for n in range(1, ev + 1):
                o.append(bar(n, ev, n // 6, "6.%02d" % (n % 100)))
            o.append("\n{'eval_loss': %s, 'eval_runtime': 41.2213, 'eval_samples_per_second': 48.518, "
                     "'eval_steps_per_second': 6.065, 'epoch': %.2f}\n" % (loss[(i + 3) & MASK], float(s % total) / total))
        if s % save_every == 0:
            o.append("[INFO|trainer.py:3478] %s >> Saving model checkpoint to ./out/checkpoint-%d\n" % (_ts(s / 1.9), s))
            for r in range(8):
                o.append("/usr/local/lib/python3.10/dist-packages/torch/distributed/fsdp/fully_sharded_data_parallel.py:690: "
                         "FutureWarning: FSDP.state_dict_type() and FSDP.set_state_dict_type() are being deprecated. "
                         "Please use APIs, get_state_dict() and set_state_dict(), which can support different parallelisms, "
                         "FSDP1, FSDP2, DDP. API doc: https://pytorch.org/docs/stable/distributed.checkpoint.html"
                         "#torch.distributed.checkpoint.state_dict.get_state_dict .Tutorial: "
                         "https://pytorch.org/tutorials/recipes/distributed_checkpoint_recipe.html .\n  warnings.warn(\n")
        return "".join(o)

    end = size - len(tail.encode()) - 4096
    k = 0
    while sink.size < end:
        k += 1
        sink.add(block(k))
    sink.add("\n" + tail)


# --------------------------------------------------------------------------------- lightning

def lightning(sink, size, seed):
    """PyTorch Lightning DDP on 8 GPUs with RichProgressBar, captured from a terminal (ANSI colours,
    `\\r\\x1b[2K` redraws: one line per epoch), with Lightning's and PyTorch's warnings from the
    ranks, whose text changes with the batch so that Python's warning filter lets each through."""
    rng = random.Random(seed + 13)
    steps = 1000
    loss = ["%.3f" % (1.9 + 0.8 * rng.random()) for _ in range(TABLE)]
    its = ["%.2f" % (7.0 + 0.6 * rng.random()) for _ in range(TABLE)]
    out = ["Using 16bit Automatic Mixed Precision (AMP)\n",
           "GPU available: True (cuda), used: True\n",
           "TPU available: False, using: 0 TPU cores\n",
           "HPU available: False, using: 0 HPUs\n"]
    for r in range(8):
        out.append("Initializing distributed: GLOBAL_RANK: %d, MEMBER: %d/8\n" % (r, r + 1))
    out += ["----------------------------------------------------------------------------------------------------\n",
            "distributed_backend=nccl\n",
            "All distributed processes registered. Starting with 8 processes\n",
            "----------------------------------------------------------------------------------------------------\n\n"]
    for r in range(8):
        out.append("LOCAL_RANK: %d - CUDA_VISIBLE_DEVICES: [0,1,2,3,4,5,6,7]\n" % r)
    out += ["\u250f\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2501\u2533\u2501\u2501\u2501\u2501\u2501\u2501\u2513\n",
            "\u2503   \u2503 Name  \u2503 Type          \u2503 Params \u2503 Mode  \u2503\n",
            "\u2502 0 \u2502 model \u2502 LlamaForCausalLM \u2502  1.2 B \u2502 train \u2502\n",
            "Trainable params: 1.2 B\nNon-trainable params: 0\nTotal params: 1.2 B\n"
            "Total estimated model params size (MB): 4943\n"]
    sink.add("".join(out))

    c = Cluster(8, 8, seed, "gpu-node-%d")
    tail = ["[rank5]: Traceback (most recent call last):\n",
            '[rank5]:   File "/workspace/train.py", line 88, in <module>\n',
            "[rank5]:     trainer.fit(model, datamodule=dm)\n",
            '[rank5]:   File "/usr/local/lib/python3.10/dist-packages/lightning/pytorch/trainer/trainer.py", line 538, in fit\n',
            "[rank5]:     call._call_and_handle_interrupt(\n",
            '[rank5]:   File "/usr/local/lib/python3.10/dist-packages/lightning/pytorch/loops/optimization/automatic.py", line 319, in _optimizer_step\n',
            "[rank5]:     self.trainer.strategy.backward(closure_loss, None)\n",
            "[rank5]: RuntimeError: CUDA error: an illegal memory access was encountered\n",
            "[rank5]: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
            "might be incorrect.\n",
            "[rank5]: For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n",
            "[rank5]: Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"]
    for r in range(8):
        if r != 5:
            tail += _watchdog("[rank%d]:" % r, r, 90211, 300000 + r)[:3]
    tail = "".join(tail)

    def bar_update(ep, n, sec):
        done = 40 * n // steps
        b = ("\x1b[38;2;249;38;114m" + "\u2501" * done + "\x1b[0m\x1b[38;5;237m" + "\u257a" + "\u2501" * (39 - done) + "\x1b[0m"
             if done < 40 else "\x1b[38;2;114;156;31m" + "\u2501" * 40 + "\x1b[0m")
        left = (steps - n) * 10 // 73
        return ("\r\x1b[2KEpoch %d/49 %s \x1b[37m%d/%d\x1b[0m \x1b[38;5;245m0:%02d:%02d \u2022 0:%02d:%02d\x1b[0m "
                "\x1b[38;5;249m%sit/s\x1b[0m \x1b[37mv_num: 0 train_loss: %s\x1b[0m"
                % (ep, b, n, steps, sec // 60 % 60, sec % 60, left // 60, left % 60, its[n & MASK], loss[(ep * 7 + n) & MASK]))

    chunk = 50

    def piece(k):
        """50 bar redraws; a validation pass and the ranks' warnings at the end of each epoch."""
        ep, part = divmod(k - 1, steps // chunk)
        o = [bar_update(ep, n, n * 10 // 73) for n in range(part * chunk + 1, part * chunk + chunk + 1)]
        if part == steps // chunk - 1:
            o.append("\n")
            for r in range(8):
                o.append("/usr/local/lib/python3.10/dist-packages/lightning/pytorch/utilities/data.py:78: Trying to "
                         "infer the `batch_size` from an ambiguous collection. The batch size we found is %d. To avoid "
                         "any miscalculations, use `self.log(..., batch_size=batch_size)`.\n" % (rng.randrange(9, 33)))
            for n in range(1, 126, 5):
                o.append("\r\x1b[2K\x1b[1mValidation\x1b[0m \x1b[38;2;249;38;114m%s\x1b[0m %d/125 0:00:%02d \u2022 0:00:%02d %sit/s"
                         % ("\u2501" * (40 * n // 125), n, n // 12, (125 - n) // 12, its[n & MASK]))
            o.append("\n")
            o.append("/usr/local/lib/python3.10/dist-packages/lightning/pytorch/trainer/connectors/logger_connector/result.py:431: "
                     "It is recommended to use `self.log('val_loss', ..., sync_dist=True)` when logging on epoch level in "
                     "distributed setting to accumulate the metric across devices.\n")
        return "".join(o)

    end = size - len(tail.encode()) - 4096
    k = 0
    while sink.size < end:
        k += 1
        sink.add(piece(k))
    sink.add("\n" + tail)


# --------------------------------------------------------------------------------- slurm

def slurm(folder, size, seed, make_sink, nfiles=512):
    """`srun -l --output=train-%N.out` of a torchtitan-style job on `nfiles` nodes x 8 tasks: one
    file per node, every line behind srun's task label. Each task logs its steps; NCCL_DEBUG=INFO
    prints each task's communicator set-up; one task fails with an ECC error at the end, and
    srun's and slurmstepd's messages land in the first node's file."""
    os.makedirs(folder, exist_ok=True)
    per = 8
    ntasks = nfiles * per
    width = len(str(ntasks - 1))
    c = Cluster(ntasks, per, seed, "nid%06d")
    rng = random.Random(seed + 17)
    loss = ["%7.4f" % (2.0 + 0.8 * rng.random()) for _ in range(TABLE)]
    mem = ["%5.2fGiB(%5.2f%%)" % (45 + 2 * x, (45 + 2 * x) / 0.7915) for x in (rng.random() for _ in range(TABLE))]
    tps = ["{:,}".format(rng.randrange(3300, 3600)) for _ in range(TABLE)]
    fail_task = ntasks * 3 // 7
    fail_node = fail_task // per
    total = 0
    per_file = size // nfiles
    for f in range(nfiles):
        sink = make_sink(os.path.join(folder, "train-%s.out" % (c.host(f * per))))
        tasks = list(range(f * per, f * per + per))
        lab = lambda t: "%*d: " % (width, t)
        out = []
        for t in tasks:
            out.append(lab(t) + "[titan] %s - root - INFO - Starting job: Llama 3 405B training\n" % _ts(4))
            out.append(lab(t) + "[titan] %s - root - INFO - Building 1-D device mesh with ['dp_shard'], [%d]\n"
                       % (_ts(4), ntasks))
            out += [lab(t) + l for l in c.init_lines(t, rng.randrange(1 << 40, 1 << 44), 0x77a1e3b94c0d2f1, ntasks,
                                                    version=t == 0)]
        sink.add("".join(out))
        tail = []
        if f == fail_node:
            t = fail_task
            tail += [lab(t) + "Traceback (most recent call last):\n",
                     lab(t) + '  File "/workspace/torchtitan/train.py", line 408, in <module>\n',
                     lab(t) + "    main(config)\n",
                     lab(t) + '  File "/workspace/torchtitan/train.py", line 326, in main\n',
                     lab(t) + "    loss.backward()\n",
                     lab(t) + "RuntimeError: CUDA error: uncorrectable ECC error encountered\n",
                     lab(t) + "CUDA kernel errors might be asynchronously reported at some other API call, so the "
                     "stacktrace below might be incorrect.\n"]
        for t in tasks:
            if t != fail_task:
                tail += _watchdog(lab(t) + "[rank%d]:" % t, t, 52011, 400000 + t % 1000)[:2]
        if f == 0:
            tail.append("srun: error: %s: task %d: Exited with exit code 1\n" % (c.host(fail_task), fail_task))
            tail.append("slurmstepd: error: *** STEP 4815162.0 ON %s CANCELLED AT 2024-05-01T12:10:05 ***\n" % c.host(0))
            tail.append("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n")
        tail = "".join(tail)

        def step(s, tasks=tasks, lab=lab):
            i = s & MASK
            o = []
            for t in tasks:
                o.append(lab(t) + "[titan] %s - root - INFO - step: %5d  loss: %s  memory: %s  tps: %s  "
                         "tflops: 190.%02d  mfu: 19.%02d%%\n" % (_ts(60 + 9 * s), s, loss[(i + t) & MASK], mem[i],
                                                               tps[(i + t) & MASK], t % 100, (t * 7) % 100))
            if s % 50 == 0:
                o.append(lab(tasks[0]) + "[titan] %s - root - WARNING - Dataset c4 is being re-looped\n" % _ts(60 + 9 * s))
            return "".join(o)

        _fill(sink, per_file, len(tail), step)
        sink.add(tail)
        sink.close()
        total += sink.written
    return total


# --------------------------------------------------------------------------------- hang

PYSPY_MAIN = [
    ("synchronize", "torch/cuda/__init__.py", 892),
    ("_wait", "torch/distributed/distributed_c10d.py", 2501),
    ("all_reduce", "torch/distributed/distributed_c10d.py", 2530),
    ("wrapper", "torch/distributed/c10d_logger.py", 83),
    ("clip_grad_norm_", "torch/nn/utils/clip_grad.py", 79),
    ("train_step", "train.py", 311),
    ("main", "train.py", 402),
    ("<module>", "train.py", 431),
]
PYSPY_THREADS = [
    ("Thread-2 (_pin_memory_loop)", [("wait", "threading.py", 324), ("get", "queue.py", 180),
                                     ("_pin_memory_loop", "torch/utils/data/_utils/pin_memory.py", 59),
                                     ("run", "threading.py", 953), ("_bootstrap_inner", "threading.py", 1016),
                                     ("_bootstrap", "threading.py", 973)]),
    ("Thread-3", [("wait", "threading.py", 324), ("wait", "threading.py", 607),
                  ("run", "tqdm/_monitor.py", 60), ("_bootstrap_inner", "threading.py", 1016),
                  ("_bootstrap", "threading.py", 973)]),
    ("Thread-4 (_write_loop)", [("_write_loop", "torch/utils/tensorboard/_writer.py", 211),
                               ("run", "threading.py", 953), ("_bootstrap_inner", "threading.py", 1016),
                               ("_bootstrap", "threading.py", 973)]),
]


def hang(sink, size, seed):
    """A 64-rank job (8 nodes) that hangs in an all-reduce: torchrun's `[rankN]:` prefixes, the
    training steps before it, then a debugging loop's `py-spy dump` of every rank, round after
    round, and at last each rank's watchdog timeout and flight-recorder dump."""
    ranks, per = 64, 8
    c = Cluster(ranks, per, seed, "node-%d")
    rng = random.Random(seed + 19)
    loss = ["%.6E" % (2.1 + 0.6 * rng.random()) for _ in range(TABLE)]
    out = []
    for r in range(ranks):
        out += ["[rank%d]:" % r + l for l in c.init_lines(r, rng.randrange(1 << 40, 1 << 44), 0x1b2c3d4e5f607182, ranks)]
    sink.add("".join(out))
    train_bytes = size // 4
    iters = 200000

    def step(s):
        i = s & MASK
        return ("[rank63]: [%s] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): 1203.4 | "
                "learning rate: 1.498000E-04 | global batch size:  1024 | lm loss: %s | loss scale: 1.0 | grad norm: "
                "0.311 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
                % (_ts(60 + s).replace(",", ".")[:19], s, iters, 1024 * s, loss[i]))

    last = _fill(sink, train_bytes, 0, step)

    tail = []
    for r in range(ranks):
        tail += _watchdog("[rank%d]:" % r, r, last * 6 + 3, 500000 + r)
    tail += ["W0501 12:10:20.%06d 140211000000000 torch/distributed/elastic/multiprocessing/api.py:897] Sending "
             "process %d closing signal SIGTERM\n" % (100 + r, c.pid[r]) for r in range(1, per)]
    tail += ["E0501 12:10:22.000100 140211000000000 torch/distributed/elastic/multiprocessing/api.py:869] failed "
             "(exitcode: -6) local_rank: 0 (pid: %d) of binary: /usr/bin/python3\n" % c.pid[0]]
    tail += _failures_summary(c, list(range(1, 8)), 0, "train.py", "12:10:22")
    tail = "".join(tail)

    def dump(r, rnd):
        pid = c.pid[r]
        o = ["Process %d: /usr/bin/python3 -u train.py --config llama3_70b.toml\n" % pid,
             "Python v3.10.12 (/usr/bin/python3.10)\n\n",
             "Thread 0x7F%08X (active): \"MainThread\"\n" % (0x3E2B7740 + r * 0x1000)]
        for fn, path, line in PYSPY_MAIN:
            o.append("    %s (%s:%d)\n" % (fn, path, line))
        for k, (name, frames) in enumerate(PYSPY_THREADS):
            o.append("Thread 0x7F%08X (idle): \"%s\"\n" % (0x1A000640 + r * 0x1000 + k * 0x100000, name))
            for fn, path, line in frames:
                o.append("    %s (%s:%d)\n" % (fn, path, line))
        o.append("\n")
        return "".join(o)

    end = size - len(tail.encode()) - 4096
    rnd = 0
    while sink.size < end:
        rnd += 1
        sink.add("==== py-spy dump round %d (%s) ====\n" % (rnd, _ts(600 + 30 * rnd)))
        for r in range(ranks):
            sink.add("---- rank %d (%s pid %d) ----\n" % (r, c.host(r), c.pid[r]) + dump(r, rnd))
            if sink.size >= end:
                break
    sink.add(tail)


# --------------------------------------------------------------------------------- errors

def errors(sink, size, seed):
    """A job under `torchrun --max-restarts` on 2 nodes x 8 GPUs with a flaky InfiniBand link:
    every attempt, each rank prints NCCL WARNs and its Python traceback ending in a
    DistBackendError, the watchdog lines, and the agent restarts the group. The worst case for
    the matched-line path: most lines are errors."""
    ranks, per = 16, 8
    c = Cluster(ranks, per, seed, "node-%d")
    rng = random.Random(seed + 23)

    def attempt(a):
        o = []
        for r in range(ranks):
            p = "[rank%d]:" % r
            h = p + c.nccl(r, c.tid[r] + 7)
            o.append(p + c.nccl(r) + "NCCL INFO comm 0x%x rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId "
                     "0x%x - Init COMPLETE\n" % (rng.randrange(1 << 40, 1 << 44), r, ranks, c.local(r), c.local(r),
                                                 c.BUSID[c.local(r)], 0x6e2f00 + a))
            o += [h + "transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.%d<%d> with error "
                  "12, opcode 0, len 0, vendor err 129 (Recv)\n" % (1 + (r >= per), 40000 + r * 17 + a % 997),
                  h + "NCCL INFO transport/net.cc:1134 -> 6\n",
                  h + "NCCL INFO proxy.cc:679 -> 6\n",
                  h + "NCCL INFO proxy.cc:858 -> 6 [Proxy Thread]\n",
                  h + "misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer "
                  "node-%d<%d>\n" % (1 - r // per, 45000 + r),
                  h + "NCCL INFO misc/socket.cc:752 -> 6\n"]
            o += [p + "Traceback (most recent call last):\n",
                  p + '  File "/workspace/train.py", line 402, in <module>\n',
                  p + "    main()\n",
                  p + '  File "/workspace/train.py", line 311, in train_step\n',
                  p + "    dist.all_reduce(grad_norm, group=dp_group)\n",
                  p + '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/c10d_logger.py", line 83, in wrapper\n',
                  p + "    return func(*args, **kwargs)\n",
                  p + '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 2501, in all_reduce\n',
                  p + "    work = group.allreduce([tensor], opts)\n",
                  p + "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
                  "ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL "
                  "version 2.20.5\n",
                  p + "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device "
                  "error. \n",
                  p + "Last error:\n",
                  p + "NET/IB : Got completion from peer 10.1.0.%d<%d> with error 12, opcode 0, len 0, vendor err 129 "
                  "(Recv)\n" % (1 + (r >= per), 40000 + r * 17 + a % 997)]
            o += _watchdog(p, r, 40 + a, 600000 + r)[:2]
        o.append("W0501 %s 140211000000000 torch/distributed/elastic/agent/server/api.py:723] [default] Worker group "
                 "FAILED. %d/1000000 attempts left; will restart worker group\n" % (_glog(600 + a * 40, a % 1000000),
                                                                                   1000000 - a))
        return "".join(o)

    tail = "".join(_failures_summary(c, list(range(1, 8)), 0, "train.py", "12:10:22"))
    end = size - len(tail.encode()) - 4096
    a = 0
    while sink.size < end:
        a += 1
        sink.add(attempt(a))
    sink.add(tail)


WRITERS = {
    "deepspeed-nccl-info": deepspeed_nccl_info,
    "hf-trainer": hf_trainer,
    "lightning": lightning,
    "hang": hang,
    "errors": errors,
}
FOLDER_WRITERS = {"slurm": slurm}
