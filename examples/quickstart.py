from tutor_memory import Memory

with Memory.local("./my-tutor-memory") as memory:  # the embedded store, made on first use
    alice = memory.pair("alice", "biology")  # one student in one subject

    # After each chat turn, record what happened: a check moves a belief.
    alice.record_question("What is osmosis?")
    alice.record_check("Explain osmosis in one line", topic="osmosis", verdict="wrong")

    # Before the tutor answers: the memory block for its prompt.
    turn = alice.turn("What did I get wrong so far?")
    print(turn.block)
    alice.record_answer("You missed osmosis once; let us go over it.", recalled_ids=turn.memory_ids)

    for belief in alice.beliefs():
        print(belief.line)  # struggles with osmosis (0.67)
    print(alice.verify().report)  # intact: 3 episodes, head …
