import DocSyncDownload
import Testing

/// One download's buffers come from one budget whatever the plan (#39): more connections get smaller receive
/// buffers, never more memory in all.
@Suite(.timeLimit(.minutes(5))) struct TransferMemoryTests {
    @Test(
        arguments: [
            (1, 64 << 10, 0),
            (2, 64 << 10, 64 << 10),
            (4, 64 << 10, 64 << 10),
            (8, 64 << 10, 64 << 10),
            (9, 48 << 10, 64 << 10),
            (12, 32 << 10, 64 << 10),
            (16, 32 << 10, 64 << 10),
            (17, 16 << 10, 64 << 10),
            (32, 16 << 10, 64 << 10),
        ] as [(Int, Int, Int)])
    func plan(connections: Int, receiveBuffer: Int, hashBlock: Int) {
        let plan = TransferMemory.plan(connections: connections)
        #expect(plan == TransferMemory(receiveBuffer: receiveBuffer, hashBlock: hashBlock), "\(connections)")
    }

    /// Up to 16 connections (`--connections`' limit) the segmented plan's buffers stay within `splitBuffers`, the
    /// single connection's receive buffer and ring within the budget, and `splitBuffers` within the budget.
    @Test func everyPlanUpToSixteenConnectionsFitsTheBudget() {
        #expect(TransferMemory.splitBuffers <= TransferMemory.budget)
        let single = TransferMemory.plan(connections: 1)
        #expect(single.receiveBuffer + TransferMemory.ring <= TransferMemory.budget)
        for connections in 2...16 {
            let plan = TransferMemory.plan(connections: connections)
            #expect(connections * plan.receiveBuffer + plan.hashBlock <= TransferMemory.splitBuffers, "\(connections)")
            #expect(plan.receiveBuffer % TransferMemory.smallestReceiveBuffer == 0 && plan.receiveBuffer >= 16 << 10)
        }
    }
}
