"""The worker tutorial and quiz (CoSQL: how to ask interrelated questions; how to read tables joined by keys)."""

QUIZ = [
    {
        "name": "q1",
        "question": "Your previous question was “Which dorms have a gym?”. Which next question is a good related one?",
        "choices": {
            "a": "How many students live in those dorms?",
            "b": "What is the weather like today?",
            "c": "SELECT * FROM dorm",
        },
        "answer": "a",
    },
    {
        "name": "q2",
        "question": "Table lives_in has stuid and dormid. Table student has stuid and fname. How do you find the first "
        "names of the students in dorm 3?",
        "choices": {
            "a": "Look only at the student table.",
            "b": "Find the stuid values with dormid 3 in lives_in, then look up those stuid values in student.",
            "c": "It cannot be answered from these tables.",
        },
        "answer": "b",
    },
]


def quiz_passed(answers: dict) -> bool:
    """True when every quiz question has its right answer."""
    return all(answers.get(item["name"]) == item["answer"] for item in QUIZ)
