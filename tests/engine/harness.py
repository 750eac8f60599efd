# harness.py: runs a compiled program through the engine protocol, as
# `pulumi up` would run it: the program gets the Go language host's
# environment (PULUMI_MONITOR, PULUMI_ENGINE, PULUMI_PROJECT, ...) and talks
# gRPC to a test engine.
#
# The engine is build/tests/embedded-server (the embedded engine behind a
# gRPC server, tests/engine/embedded_server.c), started with the flags the
# program would get on the embedded engine, so its snapshot and printed
# outputs are those of the run.  With a Node.js engine (engine.js) the
# program talks to that one instead, which decodes every request with
# @pulumi/pulumi's own generated code, records it, and forwards it, encoded
# again by that code, to the embedded server: the run then also proves that
# Pulumi's code reads the program's bytes and that the program reads
# Pulumi's.

import json
import os
import subprocess
import tempfile
import time


class Run:
    """What a run through the engine protocol produced."""

    def __init__(self, server, server_out, server_err, program, program_err, requests):
        self.server_rc = server          # the embedded server's exit status
        self.server_out = server_out     # what it printed (the stack outputs)
        self.server_err = server_err     # its stderr
        self.program_rc = program        # the program's exit status
        self.program_err = program_err   # the program's stderr
        self.requests = requests         # the requests engine.js recorded, or None


def wait_port(path, proc, timeout):
    """Returns the port written to path by proc, or raises."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.isfile(path):
            with open(path) as fh:
                return int(fh.read())
        if proc.poll() is not None:
            raise RuntimeError(f"the test engine exited with status {proc.returncode} "
                               f"before listening: {proc.stderr.read().decode(errors='replace')}")
        time.sleep(0.02)
    raise RuntimeError("the test engine did not listen within %s s" % timeout)


def run(server, server_args, program_argv, env, cwd, project, stack, organization="organization",
        root=None, preview=False, node=None, node_args=(), timeout=120, tmp=None):
    """Runs program_argv through the engine protocol; returns a Run.

    server is the embedded server binary, server_args its pcl_main flags;
    env the environment both share (PULUMI_CONFIG and the like); node, when
    set, is the engine.js to put in front of the server.  "{addr}" in
    program_argv becomes the address the program is to talk to (which it
    also finds in PULUMI_MONITOR and PULUMI_ENGINE)."""
    work = tempfile.mkdtemp(prefix="grpc-", dir=tmp)
    senv = {k: v for k, v in env.items() if k not in ("PULUMI_MONITOR", "PULUMI_ENGINE")}
    senv["PCL_TEST_ENGINE_PORT_FILE"] = os.path.join(work, "server.port")
    sproc = subprocess.Popen([server] + list(server_args), cwd=cwd, env=senv,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    nproc = None
    record = os.path.join(work, "requests.jsonl")
    try:
        port = wait_port(senv["PCL_TEST_ENGINE_PORT_FILE"], sproc, 30)
        if node:
            nport_file = os.path.join(work, "node.port")
            nproc = subprocess.Popen(["node", node, "--port-file", nport_file, "--record", record,
                                      "--forward", f"127.0.0.1:{port}"] + list(node_args),
                                     cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            port = wait_port(nport_file, nproc, 30)
        penv = dict(env)
        penv.update({
            "PULUMI_MONITOR": f"127.0.0.1:{port}",
            "PULUMI_ENGINE": f"127.0.0.1:{port}",
            "PULUMI_PROJECT": project,
            "PULUMI_STACK": stack,
            "PULUMI_ORGANIZATION": organization,
            "PULUMI_ROOT_DIRECTORY": root or cwd,
            "PULUMI_DRY_RUN": "true" if preview else "false",
        })
        argv = [a.replace("{addr}", f"127.0.0.1:{port}") for a in program_argv]
        p = subprocess.run(argv, cwd=cwd, env=penv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
        try:
            # Generous: a sanitizer build on a loaded machine takes a while
            # to write the snapshot of a large program.
            sout, serr = sproc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            sproc.kill()
            sout, serr = sproc.communicate()
            serr += b"\n(the embedded server did not end after the program exited)"
        requests = None
        if nproc:
            nproc.terminate()
            nproc.wait(timeout=30)
            requests = []
            if os.path.isfile(record):
                with open(record) as fh:
                    requests = [json.loads(line) for line in fh if line.strip()]
        return Run(sproc.returncode, sout.decode("utf-8", "surrogateescape"),
                   serr.decode("utf-8", "replace"), p.returncode,
                   p.stderr.decode("utf-8", "replace"), requests)
    finally:
        for proc in (sproc, nproc):
            if proc and proc.poll() is None:
                proc.kill()
                proc.wait()
        for f in os.listdir(work):
            os.unlink(os.path.join(work, f))
        os.rmdir(work)
