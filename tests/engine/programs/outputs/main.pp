# A program of stack outputs only (tests/engine/faults): its calls to the
# monitor are GetDeploymentInfo, the stack's RegisterResource, the stack's
# RegisterResourceOutputs and SignalAndWaitForShutdown, in this order, each
# sent once the one before is answered.

output greeting {
  value = "hello"
}
